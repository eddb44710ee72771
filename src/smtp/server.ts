/**
 * The SMTP relay (docs/reference/design.md#contracts: SMTP), as the
 * service's `smtp.resend.com`: username `resend`, password an API key of a
 * team, and each accepted message sent by `sendEmail`, the function behind
 * `POST /emails` (src/resources/emails/send.ts), so every rule, the
 * lifecycle on the clock, the webhooks, the inbox and `GET /emails` are the
 * API's own. Listens with `smtp-server`; messages are read by `message.ts`.
 *
 * | stage | reply |
 * |---|---|
 * | connect | `220` greeting |
 * | `AUTH PLAIN` / `AUTH LOGIN` | user `resend` and a key of any team (`full_access` or `sending_access`) → `235`; anything else → `535 Authentication credentials invalid` |
 * | `MAIL` / `RCPT` / `DATA` before `AUTH` | `530 Authentication required` (smtp-server, `authOptional: false`) |
 * | `STARTTLS` | not offered (the emulator speaks plain SMTP, so a default nodemailer transport, `secure: false`, sends); with `--tls`, offered with the HTTPS certificate (src/tls/), plain SMTP still accepted |
 * | end of `DATA` | the message as `POST /emails` (schema of spec/openapi.yaml, then `sendEmail`); accepted → `250 OK: queued as <email id>`; refused → the code of the error's `reason` (`SMTP_REPLY_CODES`: `553` when the service refused the sender: `from` missing, invalid or not of a verified domain, or not the domain a restricted key may send from), `550` for any other refusal; `<message>` is the API's error `message` |
 * | end of `DATA` over the `--plan` email quota | `452 <message>` (the API's 429 `daily_quota_exceeded` / `monthly_quota_exceeded` text; transient, as the quota resets) |
 * | message over `MAX_MESSAGE_BYTES` | `552` (smtp-server) |
 * SMTP messages are not written to the request log (`GET /logs` lists API
 * requests; an SMTP transaction is none) and not counted by `--rate-limit`
 * (docs/sending.md#sending-over-smtp).
 *
 * Fault injection hooks in at `beforeStage`: it runs at the start of every
 * stage (connect, auth, mail, rcpt, data), fires the SMTP fault rules
 * (src/faults/; docs/faults.md) and may throw an `SmtpReply` to
 * answer that stage with the rule's code and text instead.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from 'smtp-server';
import type { Emulator } from '../context.js';
import type { Auth } from '../module.js';
import { ApiError, type ErrorReason } from '../http/errors.js';
import { fullStore, storeFullText } from '../store/full.js';
import { compileOperation, toApiError } from '../http/validate.js';
import { loadSpec } from '../http/spec.js';
import { sendEmail, type SendEmailInput } from '../resources/emails/service.js';
import { toSendInput } from './message.js';
import type { SmtpStage } from '../faults/rules.js';

/** The SMTP username the service takes (the service's SMTP docs). */
export const SMTP_USERNAME = 'resend';

/**
 * Largest message accepted, in bytes (50 MiB: attachments may total 40 MB
 * decoded, docs/reference/resources.md#emails, which is about 54 MB in base64; the JSON API's
 * body limit is 50 MB too). Advertised as `SIZE`; larger ones get `552`.
 */
export const MAX_MESSAGE_BYTES = 50 * 1024 * 1024;

/** A stage of an SMTP session, for `beforeStage` (defined with the fault rules, which name stages). */
export type { SmtpStage };

/** An SMTP reply to answer a stage with instead of its normal one; `code` e.g. 421, 450, 535, 550, 552, 553, 554. */
export class SmtpReply extends Error {
  override name = 'SmtpReply';
  constructor(readonly responseCode: number, message: string) {
    super(message);
  }
}

/**
 * Runs at the start of each stage, before the emulator acts on it; throwing
 * (or rejecting with) an `SmtpReply` answers the stage with it. Here the
 * SMTP fault rules fire (src/faults/): the rules for the
 * stage and the session's team (`session.user`, the authenticated caller,
 * from the `mail` stage on) may delay the stage (`latency_ms`, wall time)
 * and answer it with their code and text. Synchronous when no rule fires.
 */
export function beforeStage(ctx: Emulator, stage: SmtpStage, session: SMTPServerSession): void | Promise<void> {
  const fault = ctx.faults.forSmtp(stage, (session.user as Auth | undefined)?.teamId ?? null);
  if (!fault) return;
  const answer = () => {
    if (fault.reply) throw new SmtpReply(fault.reply.code, fault.reply.message);
  };
  if (fault.delayMs > 0) return ctx.faults.delay(fault.delayMs).then(answer);
  answer();
}

/** A listening SMTP relay. */
export interface SmtpListener {
  /** The bound port. */
  port: number;
  /** Stops listening and drops open sessions. Resolves when closed. */
  close(): Promise<void>;
}

/**
 * The reply code of each reason a send is refused for (`ApiError.reason`,
 * src/http/errors.ts `ERROR_REASONS`): 553 "mailbox name not allowed" for
 * the sender (RFC 5321 §4.2.3, the code a relay gives a refused `MAIL
 * FROM`), 550 for a recipient or another address. By reason only: the
 * error's text is passed on, never read, so rewording a message cannot
 * change a code (test/smtp/reply-codes.test.ts).
 */
export const SMTP_REPLY_CODES: Readonly<Record<ErrorReason, 550 | 553>> = {
  sender_missing: 553,
  sender_invalid: 553,
  sender_domain_not_verified: 553,
  sender_domain_not_allowed: 553,
  recipient_not_allowed: 550,
  address_invalid: 550,
};

/**
 * The SMTP reply for an error thrown while handling a stage: an `SmtpReply`
 * as it is; an `ApiError` over a quota (429) → 452; another `ApiError` →
 * its reason's code (`SMTP_REPLY_CODES`), 550 without one, with the API's
 * message; anything else → 451.
 */
export function smtpReplyFor(err: unknown): SmtpReply {
  if (err instanceof SmtpReply) return err;
  // Over a quota (429): 452, a transient refusal (RFC 5321 §4.2.2: the sender may retry once the quota resets).
  if (err instanceof ApiError && err.statusCode === 429) return new SmtpReply(452, err.message);
  if (err instanceof ApiError) return new SmtpReply(err.reason ? SMTP_REPLY_CODES[err.reason] : 550, err.message);
  return new SmtpReply(451, `Local error in processing: ${(err as Error)?.message ?? err}`);
}

/**
 * Runs `beforeStage`, then `next` when it let the stage through; what it
 * throws or rejects with becomes the callback's error (the stage's reply).
 */
function passes(ctx: Emulator, stage: SmtpStage, session: SMTPServerSession, callback: (err?: Error | null) => void, next: () => void): void {
  let pending: void | Promise<void>;
  try {
    pending = beforeStage(ctx, stage, session);
  } catch (err) {
    callback(smtpReplyFor(err));
    return;
  }
  if (!pending) return next();
  // A throw from `next` itself is answered too, never left as an unhandled rejection.
  pending.then(next).catch((err) => callback(smtpReplyFor(err)));
}

/** Collects a DATA stream; resolves with its bytes, or null when it went over the size limit. */
function readStream(stream: NodeJS.ReadableStream & { sizeExceeded?: boolean }): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.once('error', reject);
    stream.once('end', () => resolve(stream.sizeExceeded ? null : Buffer.concat(chunks)));
  });
}

/** The `emails/send` body validator of spec/openapi.yaml (what `POST /emails` checks before `sendEmail`). */
async function sendBodyValidator() {
  const { operations } = await loadSpec();
  const op = operations.find((o) => o.operationId === 'emails/send');
  const validate = op && compileOperation(op).body;
  if (!validate) throw new Error('spec/openapi.yaml lacks the emails/send body');
  return validate;
}

/**
 * Sends one message as `POST /emails` does, for `auth`'s team. Returns the
 * new email's id. Throws `ApiError` as the API would answer (schema errors,
 * then the rules of `sendEmail`).
 */
export async function sendSmtpMessage(ctx: Emulator, auth: Auth, raw: Buffer, envelope: { mailFrom: string | null; rcptTo: string[] }): Promise<string> {
  const input: SendEmailInput = await toSendInput(raw, envelope);
  const validate = await sendBodyValidator();
  if (!validate(input)) throw toApiError(validate.errors, 'body');
  // `sendEmail` checks the plan's email quotas, as for POST /emails (each recipient one email).
  return sendEmail(ctx, input, { teamId: auth.teamId, restrictDomainId: auth.domainId, source: 'smtp' }).id;
}

/**
 * Starts the relay on `host:port` (`port` 0 picks a free one), offering
 * STARTTLS with `certificate` (PEM; `cert` the chain, leaf then
 * intermediate) when given. Rejects with the listener's error
 * (`EADDRINUSE`, `EACCES`, ...) when it cannot bind.
 */
export async function startSmtp(ctx: Emulator, host: string, port: number, certificate?: { cert: string; key: string }): Promise<SmtpListener> {
  // With `--tls`, STARTTLS is offered with the emulator's certificate; without it, not at all.
  const starttls = certificate ?? { disabledCommands: ['STARTTLS'], hideSTARTTLS: true };
  const server = new SMTPServer({
    ...starttls,
    name: 'resend-emulator',
    banner: 'resend-emulator SMTP relay',
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    // A silent client is dropped (421) instead of holding its connection.
    socketTimeout: ctx.config.timeouts.smtpSocketMs,
    onConnect(session, callback) {
      passes(ctx, 'connect', session, callback, () => callback());
    },
    onAuth(auth: SMTPServerAuthentication, session, callback) {
      passes(ctx, 'auth', session, callback, () => {
        const key = auth.username === SMTP_USERNAME && auth.password ? ctx.keys.find(ctx, auth.password) : null;
        if (!key) return callback(new SmtpReply(535, 'Authentication credentials invalid'));
        callback(null, { user: ctx.keys.markUsed(ctx, key) });
      });
    },
    onMailFrom(_address, session, callback) {
      passes(ctx, 'mail', session, callback, () => callback());
    },
    onRcptTo(_address, session, callback) {
      passes(ctx, 'rcpt', session, callback, () => callback());
    },
    onData(stream, session, callback) {
      readStream(stream).then(
        (raw) => {
          if (raw === null) return callback(null); // smtp-server answers 552 for an oversized message
          passes(ctx, 'data', session, callback, async () => {
            try {
              const id = await sendSmtpMessage(ctx, session.user as Auth, raw, {
                mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
              });
              callback(null, `OK: queued as ${id}`);
            } catch (err) {
              const full = fullStore(err);
              if (full) {
                // The machine's fault (src/store/full.ts): one log line and 452, a transient reply (RFC 5321 §4.2.3), so the client retries.
                const text = `${storeFullText(full, ctx.config.db, ctx.config.uploadDir)}; nothing was written: free space on its disk and retry`;
                ctx.log('error', `${text} (SMTP DATA answered 452)`);
                return callback(new SmtpReply(452, `Insufficient system storage: ${text}`));
              }
              if (!(err instanceof ApiError)) ctx.log('error', `SMTP message failed: ${(err as Error)?.stack ?? err}`);
              callback(smtpReplyFor(err));
            }
          });
        },
        (err) => callback(smtpReplyFor(err)),
      );
    },
  });
  // smtp-server re-emits listener and session errors; without a listener they would crash the process.
  server.on('error', (err) => ctx.log('debug', `SMTP: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.server.address() as AddressInfo).port;
  let closed: Promise<void> | null = null;
  return {
    port: bound,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => {
          // Node keeps a closed listener until its handle's close callback, which a process that never returns to
          // the event loop between emulators does not reach: its connection handler (the SMTPServer, whose
          // handlers hold the emulator) is let go now.
          server.server.removeAllListeners();
          resolve();
        });
        for (const c of server.connections) c.close();
      });
      return closed;
    },
  };
}
