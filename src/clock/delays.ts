/**
 * How long each asynchronous transition takes in emulated time (ms). The real
 * service takes seconds to hours; the emulator uses short, documented,
 * deterministic delays (DESIGN.md "Behaviour: Clock"; listed in README).
 * A delay of 0 means "at the next advance" in manual mode.
 */
export const DELAYS = {
  /** POST /domains/{id}/verify: `pending` → `verified` | `failed`. */
  domainVerification: 5_000,
  /** POST /domains/{id}/claim/verify: `pending` → `completed` | `failed`. */
  claimVerification: 5_000,
  /** A domain claim expires this long after creation (API-FACTS §5.4: 7 days). */
  claimExpiry: 7 * 24 * 3_600_000,
  /** POST /contacts/imports: `queued` → `in_progress`. */
  contactImportStart: 1_000,
  /** Contact import `in_progress` → `completed` | `failed` (the CSV is read when this job runs). */
  contactImportRun: 1_000,
  /** A broadcast sent (or reaching its `scheduled_at`) is `queued`; its first batch of emails goes out this much later. */
  broadcastQueued: 1_000,
  /** Between two batches of a broadcast's emails (100 a batch); `sent` after the last one. */
  broadcastBatch: 1_000,
  /** POST /emails (and batch, broadcasts): `queued` → `sent` (a scheduled email is sent at its `scheduled_at`). */
  emailSend: 1_000,
  /** `sent` → `delivered` | `bounced` (test addresses, API-FACTS §7). */
  emailDelivery: 2_000,
  /** `delivered` → `complained` for `complained@resend.dev`. */
  emailComplaint: 2_000,
  /** Emails may be scheduled at most this far ahead (API-FACTS §5.1: 30 days). */
  emailScheduleLimit: 30 * 24 * 3_600_000,
  /** A thread moved to `trash` (DELETE or PATCH of an inbox thread) is deleted after 30 days (INBOXES-FACTS §6.3). */
  inboxTrashPurge: 30 * 24 * 3_600_000,
  /** POST /events/send: a triggered automation run executes its first steps (run created `running` at once). */
  automationRunStart: 0,
  /** POST /events/send: a run waiting for that event (`wait_for_event`) resumes. */
  automationEventResume: 0,
} as const;
