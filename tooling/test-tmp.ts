// Every vitest run gets a temp dir of its own for test workspaces (test-utils' testTmpdir(),
// makeWorkspace()): a test that makes a workspace cannot always remove it (its sessions may
// still be writing there), so runs left ~450 `procmux-sessions-*` dirs in /tmp. Set before any
// worker starts, removed once every file ran. The name is short: sockets live under it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'pmt-'));
  process.env.PROCMUX_TEST_TMP = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
