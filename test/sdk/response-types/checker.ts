/**
 * Type-checks what the emulator answered against the official SDK's own
 * declared types, with the TypeScript compiler API in process (no temp file).
 *
 * Each recorded call `{method: 'contacts.get', data}` becomes one block of a
 * generated module, compiled against `node_modules/resend/dist/index.d.mts`:
 *
 * ```ts
 * { type SDK = Data<Resend['contacts']['get']>;          // NonNullable<Awaited<ReturnType<…>>['data']>
 *   const r: SDK = received({ … the JSON … } as const); }
 * ```
 *
 * `as const` keeps every string a literal, so a wrong enum value fails
 * (`'sent'` is not `'draft' | 'queued'`); `received()` hands the value over
 * as a non-fresh, mutable type, so a key the SDK does not declare is not an
 * error (the service answers more than the SDK types) while a missing
 * required key, a `null` where the SDK says `string`, or a wrong value type is.
 * `expected` replaces `SDK` with another type expression where the call's
 * options pick a generic's instantiation or an exception applies (its text
 * may name `SDK` and any type the `resend` package exports).
 */
import path from 'node:path';
import ts from 'typescript';

/** One SDK call's answer: the method path (`a.b.c` under `Resend`) and its `data`. */
export interface RecordedCall {
  method: string;
  /** Variant label (e.g. `audienceId (deprecated)`), for messages only. */
  variant?: string;
  data: unknown;
  /** A type expression to check against instead of the SDK method's `data` type. */
  expected?: string;
}

/** A type error found in one recorded answer. */
export interface TypeProblem {
  method: string;
  variant?: string;
  message: string;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The generated module's (virtual) file name: inside the repository, so `resend` resolves from node_modules. */
const GENERATED = path.join(ROOT, 'test', 'sdk', 'response-types', '__generated_response_types__.ts');

/** TypeScript source of a type-safe index path: `Resend['a']['b']['c']`. */
function memberType(method: string): string {
  return `Resend${method.split('.').map((p) => `[${JSON.stringify(p)}]`).join('')}`;
}

/** The generated module and, per recorded call, the (0-based) line range its block takes. */
export function generateSource(calls: RecordedCall[]): { text: string; ranges: { start: number; end: number; call: RecordedCall }[] } {
  const lines = [
    "import type * as SDKTypes from 'resend';",
    "import type { Resend } from 'resend';",
    'type DeepMutable<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;',
    'declare function received<V>(value: V): DeepMutable<V>;',
    'type Data<M> = M extends (...args: never[]) => infer R ? NonNullable<Awaited<R> extends { data: infer D } ? D : never> : never;',
  ];
  const ranges: { start: number; end: number; call: RecordedCall }[] = [];
  calls.forEach((call, i) => {
    const start = lines.length;
    const sdk = `Data<${memberType(call.method)}>`;
    const expected = call.expected ? call.expected.replace(/\bSDK\b/g, sdk) : sdk;
    lines.push(`// ${call.method}${call.variant ? ` [${call.variant}]` : ''}`);
    lines.push(...`export const r${i}: ${expected} = received(${JSON.stringify(call.data ?? null, null, 1)} as const);`.split('\n'));
    ranges.push({ start, end: lines.length - 1, call });
  });
  return { text: lines.join('\n'), ranges };
}

/**
 * Compiles the generated module and returns the type errors found in it,
 * each attributed to the recorded call whose block it is in. Diagnostics of
 * the SDK's own declaration files are not ours (`skipLibCheck`).
 */
export function checkResponseTypes(calls: RecordedCall[]): TypeProblem[] {
  const { text, ranges } = generateSource(calls);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  };
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    path.resolve(fileName) === GENERATED ? ts.createSourceFile(fileName, text, languageVersion, true) : getSourceFile(fileName, languageVersion, onError, shouldCreate);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => path.resolve(fileName) === GENERATED || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => (path.resolve(fileName) === GENERATED ? text : readFile(fileName));
  const program = ts.createProgram({ rootNames: [GENERATED], options, host });
  const source = program.getSourceFile(GENERATED)!;
  const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  const problems: TypeProblem[] = [];
  for (const d of diagnostics) {
    const line = d.start === undefined ? -1 : source.getLineAndCharacterOfPosition(d.start).line;
    const range = ranges.find((r) => line >= r.start && line <= r.end);
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    problems.push({ method: range?.call.method ?? '(generated module)', variant: range?.call.variant, message: range ? message : `line ${line + 1}: ${message}` });
  }
  return problems;
}
