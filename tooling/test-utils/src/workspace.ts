import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh workspace root for a sessions registry: a real path (symlinks resolved, as the cwd
 * check compares real paths) with one subdirectory, `sub`.
 */
export function makeWorkspace(prefix = 'procmux-sessions-'): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  mkdirSync(join(root, 'sub'));
  return root;
}
