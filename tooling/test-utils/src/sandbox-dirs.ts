// Teardown check for OS-sandboxed sessions: each makes a private directory
// (`procmux-sandbox-*` under the temp dir) that must be gone once its process is. Other test
// workers make them in the shared /tmp at the same time, so a file points TMPDIR at a temp
// dir of its own first and checks only that one.
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from './workspace.js';

const PREFIX = 'procmux-sandbox-';

/**
 * Points this process's TMPDIR (and so every sandbox it opens, and every host it starts with
 * its environment) at a fresh directory; returns it. Call at the top of a test file. It lies in
 * the run's own temp dir (removed once every file ran): in /tmp each run left ~30 behind.
 */
export function privateTmpdir(): string {
  const dir = realpathSync(mkdtempSync(join(testTmpdir(), 'pm-tmp-')));
  process.env.TMPDIR = dir;
  return dir;
}

/** The sandbox private directories under `dir`. */
export function sandboxDirs(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith(PREFIX))
    .map((name) => join(dir, name));
}

/**
 * Waits up to `settleMs` for the sandbox dirs under `dir` to go (a session's close runs just
 * after its end), then throws naming any left, after removing them so the next file starts clean.
 */
export async function assertNoSandboxDirs(dir: string, settleMs = 3_000): Promise<void> {
  const deadline = Date.now() + settleMs;
  let left = sandboxDirs(dir);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = sandboxDirs(dir);
  }
  for (const path of left) rmSync(path, { recursive: true, force: true });
  if (left.length > 0) throw new Error(`sandbox private directories left behind: ${left.join(', ')}`);
}
