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
  /** POST /events/send: a triggered automation run executes its first steps (run created `running` at once). */
  automationRunStart: 0,
  /** POST /events/send: a run waiting for that event (`wait_for_event`) resumes. */
  automationEventResume: 0,
} as const;
