/**
 * Records every answer of an official SDK client: `recording(resend, log)`
 * returns the client seen through a Proxy that, for each method call at a
 * path under `Resend` (`contacts.get`, `inboxes.threads.emails.list`, …),
 * pushes `{method, args, result}` once the call settles. Calls go to the
 * real client unchanged; a promise-like result (such as the SDK's
 * `ChainableTemplateResult`) is awaited, so its chained `.publish()` is not
 * available through the recorder.
 */

/** One recorded SDK call: its method path, arguments and what it returned (awaited). */
export interface SdkCall {
  method: string;
  args: unknown[];
  result: unknown;
}

/** The arguments as JS-like source text (`{ audienceId: "…" }`), for METHODS' `when` patterns of scripts/sdk-coverage.mjs. */
export function argsText(args: unknown[]): string {
  return args.map((a) => (a instanceof Blob ? 'Blob' : JSON.stringify(a) ?? 'undefined').replace(/"([A-Za-z_$][\w$]*)":/g, '$1: ')).join(', ');
}

/** The client `target` seen through the recorder; every call lands in `log`. */
export function recording<T extends object>(target: T, log: SdkCall[], prefix: string[] = []): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop, obj) as unknown;
      if (typeof prop !== 'string' || prop === 'constructor') return value;
      const method = [...prefix, prop].join('.');
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(obj, args);
          if (out && typeof (out as PromiseLike<unknown>).then === 'function') {
            return Promise.resolve(out as PromiseLike<unknown>).then((result) => {
              log.push({ method, args, result });
              return result;
            });
          }
          log.push({ method, args, result: out });
          return out;
        };
      }
      if (value && typeof value === 'object' && prefix.length < 4 && !Array.isArray(value)) return recording(value, log, [...prefix, prop]);
      return value;
    },
  });
}
