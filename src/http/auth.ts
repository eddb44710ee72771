/**
 * Authentication and permission (docs/reference/design.md#auth; docs/reference/errors.md#error-names-and-statuses;
 * docs/reference/interface-spec.md#authentication):
 * - no `Authorization` header → 401 `missing_api_key`;
 * - a header that is not `Bearer <known token>` → 403 `invalid_api_key`;
 * - a `sending_access` key on an operation without
 *   `x-emulator-permission: sending` → 401 `restricted_api_key`.
 * The keys are the api-keys resource's (`ctx.keys`, src/resources/api-keys/
 * service.ts): looked up by sha256; `last_used_at` is set to emulated now
 * (at most once a second per key).
 */
import type { Auth, Emulator } from '../context.js';
import { errors } from './errors.js';
import type { Operation } from './spec.js';

/** Resolves the caller of a request. Throws the errors listed above. */
export function authenticate(ctx: Emulator, header: string | undefined, op: Operation): Auth {
  if (header === undefined || header.trim() === '') throw errors.missingApiKey();
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw errors.invalidApiKey();
  const key = ctx.keys.find(ctx, m[1]);
  if (!key) throw errors.invalidApiKey();
  if (key.permission === 'sending_access' && !op.sending) throw errors.restrictedApiKey();
  return ctx.keys.markUsed(ctx, key);
}
