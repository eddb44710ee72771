/**
 * A small filesystem for store-full tests: a tmpfs of `size` bytes mounted on
 * a fresh temp folder for the file's tests (`beforeAll`), unmounted lazily and
 * removed after them. Where mounting is refused (no privilege), or with
 * `FULL_DISK_PAGES=1`, `mounted` is false and the caller fills the store with
 * SQLite's `max_page_count` instead. `fill(leave)` writes a ballast file that
 * leaves `leave` bytes free and returns a function that frees the space again.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export interface SmallFilesystem {
  /** The folder (the mount point when `mounted`). */
  readonly dir: string;
  readonly mounted: boolean;
  fill(leave: number): () => void;
}

export function useSmallFilesystem(prefix: string, size: number): SmallFilesystem {
  const fsys = { dir: '', mounted: false } as { dir: string; mounted: boolean };
  beforeAll(() => {
    fsys.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    try {
      if (process.env.FULL_DISK_PAGES === '1') throw new Error('max_page_count variant asked for');
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', fsys.dir], { stdio: 'ignore' });
      fsys.mounted = true;
    } catch {
      fsys.mounted = false;
    }
  });
  afterAll(() => {
    // A file still open (a failed run's stream) makes the mount busy: detach it lazily then.
    if (fsys.mounted) execFileSync('umount', ['-l', fsys.dir]);
    fs.rmSync(fsys.dir, { recursive: true, force: true });
  });
  return {
    get dir() { return fsys.dir; },
    get mounted() { return fsys.mounted; },
    fill(leave: number) {
      const ballast = path.join(fsys.dir, 'ballast');
      const st = fs.statfsSync(fsys.dir);
      fs.writeFileSync(ballast, Buffer.alloc(Math.max(Number(st.bavail) * Number(st.bsize) - leave, 0)));
      return () => fs.rmSync(ballast, { force: true });
    },
  };
}
