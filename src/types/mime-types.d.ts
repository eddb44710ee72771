/**
 * The part of `mime-types` (a dependency; the package ships no types and
 * `@types/mime-types` is not installed) the emulator uses: `lookup` gives the
 * content type of a path's extension from mime-db, or `false` when unknown.
 */
declare module 'mime-types' {
  export function lookup(filenameOrExt: string): string | false;
  const mimeTypes: { lookup: typeof lookup };
  export default mimeTypes;
}
