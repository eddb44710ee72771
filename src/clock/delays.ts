/**
 * How long each asynchronous transition takes in emulated time (ms). The real
 * service takes seconds to hours; the emulator uses short, documented,
 * deterministic delays (docs/reference/design.md#clock; listed in docs/clock.md).
 * A delay of 0 means "at the next advance" in manual mode.
 */
export const DELAYS = {
  /** POST /domains/{id}/verify: `pending` → `verified` | `failed`. */
  domainVerification: 5_000,
  /** POST /domains/{id}/claim/verify: `pending` → `completed` | `failed`. */
  claimVerification: 5_000,
  /** A domain claim expires this long after creation (docs/reference/resources.md#domains-and-claims: 7 days). */
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
  /** `sent` → `delivered` | `bounced` (test addresses, docs/reference/test-addresses.md). */
  emailDelivery: 2_000,
  /** `delivered` → `complained` for `complained@resend.dev`. */
  emailComplaint: 2_000,
  /** Emails may be scheduled at most this far ahead (docs/reference/resources.md#emails: 30 days). */
  emailScheduleLimit: 30 * 24 * 3_600_000,
  /** A thread moved to `trash` (DELETE or PATCH of an inbox thread) is deleted after 30 days (docs/reference/inboxes.md#folders-and-read-state). */
  inboxTrashPurge: 30 * 24 * 3_600_000,
  /** POST /events/send: a triggered automation run executes its first steps (run created `running` at once). */
  automationRunStart: 0,
  /** POST /events/send: a run waiting for that event (`wait_for_event`) resumes. */
  automationEventResume: 0,
} as const;
