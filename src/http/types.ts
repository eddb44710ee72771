/**
 * Types of the operation handlers that resource modules export, keyed by the
 * operationId of `spec/openapi.yaml` (the Firebase Auth emulator's idea).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import type { Emulator } from '../context.js';
import type { Migration, DB } from '../store/db.js';
import type { Job } from '../clock/scheduler.js';
import type { ResponseInfo } from '../app.js';

/** The caller, from the API key (see `src/http/auth.ts`). */
export interface Auth {
  teamId: string;
  apiKeyId: string;
  permission: 'full_access' | 'sending_access';
  /** Domain a `sending_access` key is restricted to, or null. */
  domainId: string | null;
}

/** A validated request. `params`/`query` are coerced to their schema types. */
export interface OpRequest<B = any, Q = Record<string, any>, P = Record<string, string>> {
  params: P;
  query: Q;
  body: B;
  /** `null` only on operations with `security: []` (the admin API). */
  auth: Auth | null;
  headers: IncomingHttpHeaders;
  /** Uploaded file of a multipart operation (multer, on disk). */
  file?: Express.Multer.File;
  /** The underlying express request (for the rare handler that needs it). */
  raw: Request;
}

/** A reply with an explicit status or headers; a plain value is sent with the operation's success status. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** Content type for a non-JSON body (e.g. the inbox page). */
    readonly contentType?: string,
  ) {}
}

/**
 * Returned by a handler that wrote the response itself through
 * `req.raw.res` (the inbox page's server-sent events stream): the app then
 * sends nothing and skips response validation. Use only for streams.
 */
export const HANDLED: unique symbol = Symbol('resend-emulator.handled');

/** Handles one operation; returns the JSON body, a `Reply` or `HANDLED`. Throws `ApiError`. */
export type OperationHandler = (ctx: Emulator, req: OpRequest) => unknown | Promise<unknown>;

/** Runs one job type (see `src/clock/scheduler.ts`). */
export type ResourceJobHandler = (ctx: Emulator, job: Job) => void | Promise<void>;

/**
 * One API resource's room: its schema, its operations, its jobs and how it
 * seeds fixtures. Listed in `src/resources/index.ts`.
 */
export interface ResourceModule {
  name: string;
  /** Numbered schema steps (version range given in src/resources/index.ts). */
  migrations?: Migration[];
  /** Handlers keyed by operationId. */
  operations?: Record<string, OperationHandler>;
  /** Job handlers keyed by job type (`<resource>.<what>`). */
  jobs?: Record<string, ResourceJobHandler>;
  /**
   * Job types (of `jobs`) whose handler awaits I/O (file reads): run outside
   * a transaction, marked `running` meanwhile, re-run after a crash, so they
   * must be safe to run again (`src/clock/scheduler.ts` "Crash safety").
   * Every other job is synchronous and commits with its end.
   */
  asyncJobs?: string[];
  /** Job types (of `jobs`) that await network I/O: async (see `asyncJobs`), and with the real clock they run without holding up other jobs. */
  detachedJobs?: string[];
  /**
   * Inserts this resource's part of the fixtures (`fixtures[name]`), inside
   * the reset transaction. Must be synchronous.
   */
  seed?: (ctx: Emulator, fixtures: Record<string, any>, db: DB) => void;
  /**
   * Stored uploads (paths, src/http/uploads.ts) that this module's rows still
   * need, e.g. the CSVs of imports not yet run. Reset, a snapshot import and
   * the close of an in-memory store delete those no row needs any more.
   */
  uploads?: (ctx: Emulator) => string[];
  /** Called after every answered API operation (e.g. to record request logs). Must not throw. */
  onResponse?: (ctx: Emulator, info: ResponseInfo) => void;
}
