/**
 * Loading a package on first use instead of at start-up (start-up
 * is mostly module loading). Packages that only some requests need
 * (html-to-text, postal-mime, papaparse, nodemailer's MailComposer) are
 * required synchronously the first time a function needs them, so the
 * callers stay synchronous (e.g. inside a SQLite transaction).
 *
 * ```ts
 * const htmlToText = lazy(() => requirePackage<typeof import('html-to-text')>('html-to-text').compile({ wordwrap: false }));
 * htmlToText()('<p>hi</p>');
 * ```
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * `require()` of a package (its CommonJS build; every package named above
 * ships one). `T` is the package's type, e.g. `typeof import('papaparse')`.
 * Throws as `require` does when the package is missing.
 */
export function requirePackage<T>(name: string): T {
  return require(name) as T;
}

/** A getter that runs `load` once, on its first call, and then returns the same value. */
export function lazy<T>(load: () => T): () => T {
  let loaded = false;
  let value: T;
  return () => {
    if (!loaded) {
      value = load();
      loaded = true;
    }
    return value;
  };
}
