// `prepare` (npm runs it on `npm ci` / `npm install` in this folder, on
// `npm pack` and `npm publish`, and in a clone npm makes for a git URL
// install): builds dist/ with `npm run build`, which needs the
// devDependencies (openapi-typescript, typescript, esbuild).
//
// A directory install (`npm install ../resend-emulator` in another project)
// links this folder and runs `prepare` here without installing anything in
// it: on a clone where `npm ci` never ran, the build tools are missing. Then
// this says what to do, in one line, instead of `openapi-typescript: not
// found` (docs/vitest.md "Install"): with dist/ already built (an `npm ci`
// or `npm run build` done before) it keeps that build and exits 0; without
// one it exits 1.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = ['openapi-typescript', 'typescript', 'esbuild'].filter((name) => !fs.existsSync(path.join(root, 'node_modules', name, 'package.json')));
if (tools.length === 0) {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
} else if (fs.existsSync(path.join(root, 'dist', 'cli.mjs')) && fs.existsSync(path.join(root, 'dist', 'core.cjs'))) {
  process.stderr.write(`resend-emulator: keeping the dist/ already built in ${root} (its build tools are not installed: ${tools.join(', ')})\n`);
} else {
  process.stderr.write(
    `resend-emulator: dist/ is not built in ${root} and its build tools are not installed (${tools.join(', ')}). ` +
      `Run \`npm ci\` in ${root} first (it builds dist/), then install again; or install the tarball of \`npm pack\` run there (docs/vitest.md "Install").\n`,
  );
  process.exit(1);
}
