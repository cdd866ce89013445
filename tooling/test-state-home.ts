// Every vitest run gets a state home of its own: a `procmux mcp` started by a test without
// --state-dir keeps its records under $XDG_STATE_HOME/procmux/<workspace hash>, and each test's
// workspace is a new temp dir, so runs left one directory per test in the user's real
// ~/.local/state (173 after a few suite runs). Set before any worker starts, so every test
// and every process it spawns inherit it; removed with what the run wrote there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const home = mkdtempSync(join(tmpdir(), 'procmux-test-state-'));
  process.env.XDG_STATE_HOME = home;
  return () => rmSync(home, { recursive: true, force: true });
}
