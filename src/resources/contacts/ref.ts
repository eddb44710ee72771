/**
 * The `{contact}` path value: a contact id or an email address (the SDK
 * puts emails into the path raw, docs/reference/transport.md#path-encoding; express has
 * already percent-decoded it).
 */
import { contactMessages } from './messages.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Returns the value to look a contact up by. A value that is neither an
 * email (contains `@`) nor a UUID → 422 `missing_required_field`
 * ``Missing `id` or `email` field.`` (docs/reference/interface-spec.md#errors 6; wording of
 * the SDK's own check for the same condition).
 */
export function contactRef(value: string | undefined): string {
  const v = (value ?? '').trim();
  if (v.includes('@') || UUID.test(v)) return v;
  throw contactMessages.idOrEmailRequired();
}
