// After taskkill /T /F: what of the tree is still running? taskkill walks the tree by parent
// pid from the root, so it misses a member whose parent died first (a child that outlived a
// root which exited during the grace, a grandchild whose parent was killed before it).

import type { WindowsKillEffects } from './platform.js';
import type { WindowsProcess } from './process-table.js';
import { taskkill, waitGone } from './run-taskkill.js';
import { treeIn } from './sweep.js';
import { TASKKILL_NOT_FOUND } from './taskkill.js';

/** The process table, or undefined when it cannot be read (then no sweep is possible). */
export async function readTable(effects: WindowsKillEffects): Promise<WindowsProcess[] | undefined> {
  if (effects.processTable === undefined) return undefined;
  try {
    return await effects.processTable();
  } catch {
    return undefined;
  }
}

export const sortedUnique = (pids: readonly number[]) => [...new Set(pids)].sort((a, b) => a - b);

const SETTLE_MS = 2_000;

/**
 * Finds the tree's members still alive after the root's kill, force-kills each (with /T, for
 * what they started), and reports what is alive in one last look. The root itself is judged
 * by the caller. A table that cannot be read again reports nothing it cannot see.
 */
export async function sweepLeftovers(
  effects: WindowsKillEffects,
  tree: readonly WindowsProcess[],
  root: number,
): Promise<{ signalled: number[]; survivors: number[] }> {
  const after = await readTable(effects);
  if (after === undefined) return { signalled: [], survivors: [] };
  const leftovers = treeIn(after, tree, effects.selfPid).filter((p) => p.pid !== root);
  if (leftovers.length === 0) return { signalled: [], survivors: [] };

  const signalled: number[] = [];
  for (const p of leftovers) {
    const result = await taskkill(effects, p.pid, true);
    if (result.code === 0) signalled.push(p.pid);
    if (result.code !== TASKKILL_NOT_FOUND) await waitGone(effects, p.pid, SETTLE_MS);
  }
  // One last look, by identity, including anything the leftovers started meanwhile.
  const last = await readTable(effects);
  const alive = last === undefined ? leftovers : treeIn(last, [...tree, ...leftovers], effects.selfPid);
  return {
    signalled,
    survivors: alive.filter((p) => p.pid !== root && effects.isAlive(p.pid)).map((p) => p.pid),
  };
}
