/**
 * The repository's files, as the architecture checks read them: `REPO_ROOT`
 * and `repoFiles(dirs, keep)`, repo-relative `/`-separated paths, sorted,
 * without the generated document types (`src/generated`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (absolute). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The files under `dirs` whose name `keep` accepts (repo-relative, `/`-separated, sorted), `src/generated` left out. */
export function repoFiles(dirs: readonly string[], keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (rel !== 'src/generated') walk(rel);
      } else if (keep(e.name)) out.push(rel);
    }
  };
  for (const dir of dirs) walk(dir);
  return out.sort();
}
