/**
 * CONTRACT between modules (owned by the templates module; emails and
 * automations call it): resolving and rendering a published template
 * (API-FACTS §5.11: placeholders `{{{KEY}}}` / `{{{KEY|fallback}}}`).
 */
import type { Emulator } from '../../context.js';

/** The published version of a template, ready to render. */
export interface PublishedTemplate {
  id: string;
  alias: string | null;
  from: string | null;
  subject: string | null;
  reply_to: string | null;
  html: string;
  text: string | null;
  variables: { key: string; type: string; fallback_value: string | number | boolean | null }[];
}

/**
 * The team's template by id or alias, in its published version. Throws
 * `ApiError` 404 if there is none, 422 `validation_error` if it was never published.
 */
export function resolvePublishedTemplate(ctx: Emulator, teamId: string, idOrAlias: string): PublishedTemplate {
  void ctx; void teamId; void idOrAlias;
  throw new Error('resolvePublishedTemplate: being built by the templates module');
}

/**
 * Fills a template's placeholders with `variables`, then each variable's
 * fallback. Throws `ApiError` 422 `validation_error` naming a variable that
 * has neither a value nor a fallback.
 */
export function renderTemplate(
  tpl: PublishedTemplate,
  variables: Record<string, unknown>,
): { from: string | null; subject: string | null; reply_to: string | null; html: string; text: string | null } {
  void tpl; void variables;
  throw new Error('renderTemplate: being built by the templates module');
}
