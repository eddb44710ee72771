/**
 * The fault-injection step of the request pipeline (listed
 * in `buildApp`, src/app.ts, between rate limiting and validation).
 */
import type { Step } from '../http/pipeline.js';

/**
 * For a public operation (never `/_emulator/*`) of an authenticated caller:
 * the first matching rule of `ctx.faults` waits its wall-clock `latency_ms`,
 * then throws its `ApiError` (when it has one) before the request is
 * validated or the handler runs, so no state changes. The refused request is
 * still logged with its body (GET /logs).
 */
export const injectFault: Step = (call) => {
  // Synchronous unless a rule delays: the pipeline awaits only a step that returns a promise.
  if (!call.auth || call.op.path.startsWith('/_emulator')) return;
  const { faults } = call.scope.ctx;
  const fault = faults.forRequest(call.op.operationId, call.auth.teamId);
  if (!fault) return;
  if (fault.error && !Buffer.isBuffer(call.req.body)) call.body = call.req.body;
  const fail = () => {
    if (fault.error) throw fault.error;
  };
  if (fault.delayMs > 0) return faults.delay(fault.delayMs).then(fail);
  fail();
};
