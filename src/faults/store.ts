/**
 * The fault rules of one emulator, kept in memory as
 * `ctx.faults`: added by `POST /_emulator/faults`, `emu.faults.add()` or
 * the `--faults` file (`config.faults`, the start rules), fired by the
 * request pipeline (src/app.ts, after authentication), the SMTP relay
 * (`beforeStage` in src/smtp/server.ts) and the emails' `emails.send` job
 * (src/resources/emails/lifecycle.ts).
 *
 * Firing, for every kind: rules are tried oldest first; a rule matches by
 * its kind's fields (operation, team, stage, recipients); a spent rule
 * (`fired` = `times`) is skipped; a matching rule with `probability` < 1
 * draws from its own mulberry32 generator seeded by `seed` (one draw per
 * matching request, so the same sequence of requests fires the same way
 * on every run) and fires when the draw is below `probability`. Each
 * firing counts in `fired`. API and SMTP rules: the delays of the rules
 * that fire add up, and the first firing rule with a status ends the walk
 * (later rules are not tried); outcome rules: the first that fires decides.
 *
 * Reset (`POST /_emulator/reset`, `emu.reset()`, on `ctx.bus` `'reset'`)
 * puts back the start rules (none for `startServer()` without `faults`),
 * with `fired` 0 and their generators from the seed again: as the fixtures
 * for the store. Rules are not part of snapshots or of a `--db` file.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Emulator } from '../context.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../http/format.js';
import { loadSpec, type Operation } from '../http/spec.js';
import { compileOperation } from '../http/validate.js';
import { mulberry32 } from './prng.js';
import { getTeam } from '../state/teams.js';
import { normalizeRule, OperationIndex, ruleError, type ApiFault, type FaultRule, type Faults, type OutcomeFault, type SmtpFault, type SmtpStage } from './rules.js';

interface Live {
  rule: FaultRule;
  draw: () => number;
}

/**
 * The operations of the document and the `FaultInput` validator. The
 * validator is compiled when the first rule is checked, not at start-up
 * (compiling it was ~70 ms of every first `startServer()`).
 */
async function specParts(): Promise<{ ops: OperationIndex; validate: () => ValidateFunction }> {
  const { operations } = await loadSpec();
  const create = operations.find((o) => o.operationId === 'admin/create-fault');
  if (!create?.body) throw new Error('spec/openapi.yaml lacks the admin/create-fault body');
  // compileOperation compiles once per operation and keeps it.
  return { ops: operationIndexOf(operations), validate: () => compileOperation(create).body! };
}

/** The index of the document's operations, made once per process (the document is loaded once) and shared by every emulator's fault store. */
const operationIndexes = new WeakMap<readonly Operation[], OperationIndex>();
function operationIndexOf(operations: readonly Operation[]): OperationIndex {
  let index = operationIndexes.get(operations);
  if (!index) operationIndexes.set(operations, (index = new OperationIndex(operations)));
  return index;
}

/**
 * Checks rules given at start (a `--faults` file) before anything is
 * opened: `list` must be an array of rules, each valid as `POST
 * /_emulator/faults` takes it (teams are checked later, against the store).
 * Throws an Error `rule N: <message>` (N from 1) or `not a JSON array of rules`.
 */
export async function checkFaultInputs(list: unknown): Promise<void> {
  if (!Array.isArray(list)) throw new Error('not a JSON array of rules');
  const { ops, validate } = await specParts();
  list.forEach((input, i) => {
    try {
      normalizeRule(input, validate(), ops, 0);
    } catch (err) {
      throw new Error(`rule ${i + 1}: ${(err as Error).message}`);
    }
  });
}

/** The rules of one emulator. Create with `createFaultStore`. */
export class FaultStore implements Faults {
  private live: Live[] = [];

  constructor(
    private readonly ctx: Pick<Emulator, 'db' | 'config' | 'log' | 'bus'>,
    private readonly validate: () => ValidateFunction,
    private readonly ops: OperationIndex,
    /** Rules put back at every reset (`config.faults`). */
    private readonly startRules: readonly unknown[] = [],
  ) {}

  /** How many rules there are (spent ones included). */
  get size(): number {
    return this.live.length;
  }

  /**
   * Adds a rule (shape `FaultInput`); returns it with its `id` and `fired`
   * 0. Throws `ApiError` as `normalizeRule` does, and 422
   * `validation_error` for a `team_id` that names no team.
   */
  add(input: unknown): FaultRule {
    const spec = normalizeRule(input, this.validate(), this.ops, this.ctx.config.rateLimit);
    if (spec.team_id !== null && !getTeam(this.ctx.db, spec.team_id)) {
      throw new ApiError(422, 'validation_error', `The \`team_id\` \`${spec.team_id}\` names no team.`);
    }
    const rule: FaultRule = { ...spec, object: 'fault', id: newId(), fired: 0 };
    this.live.push({ rule, draw: mulberry32(rule.seed) });
    return { ...rule };
  }

  /** Every rule, oldest first, with `fired` (copies). */
  list(): FaultRule[] {
    return this.live.map((l) => ({ ...l.rule }));
  }

  /** Removes one rule; false when no rule has that id. */
  remove(id: string): boolean {
    const i = this.live.findIndex((l) => l.rule.id === id);
    if (i < 0) return false;
    this.live.splice(i, 1);
    return true;
  }

  /** Aborts the pending delays when the emulator closes: made with the first delay (an emulator that never delays makes none, and its close allocates nothing). */
  private closing: AbortController | null = null;
  private closed = false;

  /** See `Faults.delay`: a wall-clock wait of `ms`, ended early by `close()` with a 503 (at once when already closed). */
  delay(ms: number): Promise<void> {
    if (this.closed) return Promise.reject(closingError());
    this.closing ??= new AbortController();
    return sleep(ms, undefined, { signal: this.closing.signal }).catch((err: unknown) => {
      if ((err as { name?: string })?.name === 'AbortError') throw closingError();
      throw err;
    });
  }

  /** See `Faults.close`. */
  close(): void {
    this.closed = true;
    this.closing?.abort();
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const n = this.live.length;
    this.live = [];
    return n;
  }

  /**
   * Back to the start rules (fresh ids, `fired` 0). Throws an Error
   * `fault rule N: ...` with `code` `EFAULTRULE` when one does not fit the
   * store (a `team_id` that names no team). Called at start, once the store
   * is seeded, and by every reset (`resetState`, which logs a warning and
   * leaves out a start rule that no longer fits); not by a snapshot import.
   */
  restore(): void {
    this.clear();
    let failure: Error | null = null;
    this.startRules.forEach((input, i) => {
      try {
        this.add(input);
      } catch (err) {
        failure ??= Object.assign(new Error(`fault rule ${i + 1}: ${(err as Error).message}`), { code: 'EFAULTRULE' });
      }
    });
    if (failure) throw failure;
  }

  /** Whether `l` fires now (not spent; its draw, if any, below `probability`); counts it when it does. */
  private fires(l: Live, what: string): boolean {
    const r = l.rule;
    if (r.times !== null && r.fired >= r.times) return false;
    if (r.probability < 1 && !(l.draw() < r.probability)) return false;
    r.fired += 1;
    this.ctx.log('info', `fault ${r.id} fired (${what}; ${r.fired}${r.times !== null ? ` of ${r.times}` : ''})`);
    return true;
  }

  /**
   * The fault a public API request meets: `operationId` called by `teamId`.
   * Null when no rule fired (the cheap case: no rules at all).
   */
  forRequest(operationId: string, teamId: string): ApiFault | null {
    if (this.live.length === 0) return null;
    let delayMs = 0;
    let fired = false;
    for (const l of this.live) {
      const r = l.rule;
      if (r.kind !== 'api') continue;
      if (r.operation_id !== null && r.operation_id !== operationId) continue;
      if (r.team_id !== null && r.team_id !== teamId) continue;
      if (!this.fires(l, operationId)) continue;
      fired = true;
      delayMs += r.latency_ms;
      if (r.status !== null) return { delayMs, error: ruleError(r, this.ctx.config.rateLimit) };
    }
    return fired ? { delayMs, error: null } : null;
  }

  /**
   * The fault an SMTP stage meets; `teamId` is the authenticated team (null
   * before `mail`: rules with a `team_id` then never match). Null when no
   * rule fired.
   */
  forSmtp(stage: SmtpStage, teamId: string | null): SmtpFault | null {
    if (this.live.length === 0) return null;
    let delayMs = 0;
    let fired = false;
    for (const l of this.live) {
      const r = l.rule;
      if (r.kind !== 'smtp' || r.smtp !== stage) continue;
      if (r.team_id !== null && r.team_id !== teamId) continue;
      if (!this.fires(l, `SMTP ${stage}`)) continue;
      fired = true;
      delayMs += r.latency_ms;
      if (r.status !== null) return { delayMs, reply: { code: r.status, message: r.message! } };
    }
    return fired ? { delayMs, reply: null } : null;
  }

  /**
   * How an email of `teamId` to `recipients` (bare, lower-case; suppressed
   * ones left out) ends, when an outcome rule fires for it: the rule's
   * `to` must be contained in one of them (case-insensitive), and those
   * are the addresses concerned (all recipients without `to`). Null when
   * no rule fired.
   */
  forEmail(teamId: string, recipients: readonly string[]): OutcomeFault | null {
    if (this.live.length === 0 || recipients.length === 0) return null;
    for (const l of this.live) {
      const r = l.rule;
      if (r.kind !== 'outcome') continue;
      if (r.team_id !== null && r.team_id !== teamId) continue;
      const needle = r.to?.toLowerCase() ?? null;
      const addresses = needle === null ? [...recipients] : recipients.filter((a) => a.toLowerCase().includes(needle));
      if (addresses.length === 0) continue;
      if (!this.fires(l, `email ${r.outcome}`)) continue;
      return { ruleId: r.id, outcome: r.outcome!, reason: r.reason, addresses };
    }
    return null;
  }
}

/** A store for `ctx` with `startRules` (not yet added: call `restore()` once the store is seeded). */
export async function createFaultStore(ctx: Pick<Emulator, 'db' | 'config' | 'log' | 'bus'>, startRules: readonly unknown[] = []): Promise<FaultStore> {
  const { ops, validate } = await specParts();
  return new FaultStore(ctx, validate, ops, startRules);
}

/** The 503 of a request whose fault delay the emulator's close ended. */
function closingError(): ApiError {
  return new ApiError(503, 'service_unavailable', 'The emulator is closing.');
}
