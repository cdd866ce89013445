// The watchdog process (node dist/watchdog/main.js --platform P --grace-ms N). Its stdin is
// its link to the host; see loop.ts. It never writes, holds nothing but that pipe (it is
// started through the descriptor-closing wrapper) and runs in its own process group.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { TREE_MARKER_ENV } from '@procmux/core-types';
import { killAndRemove } from '../cgroup/kill.js';
import { CGROUP_PREFIX } from '../cgroup/plan.js';
import { nodeCgroupEffects } from '../cgroup/session-cgroup.js';
import { loadPlatform, resolvePlatform } from '../platform.js';
import { killScopeArgv } from '../systemd-scope/end-scope.js';
import { runWatchdogLoop } from './loop.js';

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
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(wanted))
        found.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

// Only directories procmux made (named procmux-…) are ever killed or removed.
async function killCgroup(dirs: readonly string[]): Promise<number[]> {
  const ours = dirs.filter((dir) => (dir.split('/').pop() ?? '').startsWith(CGROUP_PREFIX));
  if (ours.length === 0) return [];
  const { survivors } = await killAndRemove(ours[0]!, ours, nodeCgroupEffects);
  return survivors;
}

// The protocol admits only procmux-named units; a scope already gone is nothing to do.
async function killScope(unit: string): Promise<void> {
  const { file, args } = killScopeArgv(unit);
  await new Promise<void>((resolve) => {
    execFile(file, args, { timeout: 5_000 }, () => resolve());
  });
}

const platform = resolvePlatform(option('--platform'));
// Loaded now, while the host lives, so a host's death is answered without an import first.
const kill = loadPlatform(platform).loadKill();
kill.catch(() => {});
await runWatchdogLoop({
  input: process.stdin,
  platform,
  graceMs: Number(option('--grace-ms') ?? '3000'),
  loadEffects: async () => ({
    killTree: (await kill).killProcessTree,
    carriers,
    killCgroup,
    // The protocol admits only procmux-named absolute paths (isPrivateDir).
    removeDir: (dir) => rm(dir, { recursive: true, force: true }),
    killScope,
  }),
});
process.exit(0);
