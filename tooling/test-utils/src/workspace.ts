import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where tests make their temp dirs: the run's own (tooling/test-tmp.ts sets it; removed when the
 * run ends), else the OS temp dir.
 */
export function testTmpdir(): string {
  return process.env.PROCMUX_TEST_TMP ?? tmpdir();
}

/**
 * A fresh workspace root for a sessions registry: a real path (symlinks resolved, as the cwd
 * check compares real paths) with one subdirectory, `sub`.
 */
export function makeWorkspace(prefix = 'procmux-sessions-'): string {
  const root = realpathSync(mkdtempSync(join(testTmpdir(), prefix)));
  mkdirSync(join(root, 'sub'));
  return root;
}
