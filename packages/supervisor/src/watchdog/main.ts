// The watchdog process itself (node dist/watchdog/main.js --platform P --grace-ms N).
// Its stdin is its link to the host: it reads what the host watches, and when the link
// closes without a `bye` (the host exited, crashed or was SIGKILLed) it runs the verified
// tree kill on every watched tree, then exits. It never writes, holds nothing but that pipe
// (it was started through the descriptor-closing wrapper), and runs in its own process group.
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { TREE_MARKER_ENV } from '@procmux/core-types';
import { loadPlatform, resolvePlatform } from '../platform.js';
import { killAtHostDeath } from './host-death-kill.js';
import { decodeMessage, WatchedSet } from './protocol.js';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

// Linux: live processes whose environment carries the marker (a tree whose pid the host
// never got to send). Elsewhere the environment is not readable: nothing found.
async function carriers(marker: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const wanted = `${TREE_MARKER_ENV}=${marker}`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(wanted)) found.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

const platform = resolvePlatform(option('--platform'));
const graceMs = Number(option('--grace-ms') ?? '3000');
const watched = new WatchedSet();
let ended = false;

async function onLinkClosed(): Promise<void> {
  if (ended) return;
  ended = true;
  const trees = watched.trees();
  if (trees.length > 0) {
    const { killProcessTree } = await loadPlatform(platform).loadKill();
    await killAtHostDeath(trees, platform, graceMs, { killTree: killProcessTree, carriers });
  }
  process.exit(0);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  const message = decodeMessage(line.trim());
  if (message !== undefined) watched.apply(message);
});
lines.on('close', () => void onLinkClosed());
process.stdin.on('error', () => void onLinkClosed());
