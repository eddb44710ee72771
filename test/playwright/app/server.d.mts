/** Types of server.mjs (the app under test of the Playwright tests). */
export interface App {
  /** e.g. `http://127.0.0.1:54321`. */
  url: string;
  close(): Promise<void>;
}
/** Starts the app; `port` 0 (default) picks a free one; `resendBaseUrl` / `apiKey` default to `RESEND_BASE_URL` / `RESEND_API_KEY`. */
export function startApp(options?: { port?: number; resendBaseUrl?: string; apiKey?: string }): Promise<App>;
