/**
 * The error messages of the topics resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const topicMessages = {
  /** 422: `default_subscription` is fixed at creation (the SDK's update type omits it; the text is ours). */
  defaultSubscriptionFixed: message('emulator choice', () => errors.validation('The `default_subscription` field cannot be changed after the topic is created.', 422)),
};
