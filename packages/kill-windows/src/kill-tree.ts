// taskkill /T, a grace watched by polling, then taskkill /T /F.
import type { KillReport, KillTreeOptions } from '@procmux/core-types';
import { resolveGraceMs, validateOptions, validatePid } from './options.js';
import { type WindowsKillEffects, windowsKillEffects } from './platform.js';
import { KILL_SETTLE_MS, taskkill, waitGone } from './run-taskkill.js';
import { treeIn } from './sweep.js';
import { readTable, sortedUnique, sweepLeftovers } from './sweep-leftovers.js';
import { TASKKILL_NOT_FOUND } from './taskkill.js';

export { KILL_SETTLE_MS } from './run-taskkill.js';

/** taskkill on the root alone: what the root's tree kill signalled and whether the root survived. */
async function killRoot(
  effects: WindowsKillEffects,
  root: number,
  graceMs: number,
): Promise<{ signalled: number[]; rootSurvives: boolean }> {
  const signalled: number[] = [];
  if (graceMs > 0) {
    const soft = await taskkill(effects, root, false);
    if (soft.code === TASKKILL_NOT_FOUND) return { signalled, rootSurvives: false };
    // A refused soft kill (console programs accept only /F; access denied) asked nothing to
    // stop, so waiting out the grace would only delay the forced kill.
    if (soft.code === 0) {
      signalled.push(root);
      if (await waitGone(effects, root, graceMs)) return { signalled, rootSurvives: false };
    }
  }
  const hard = await taskkill(effects, root, true);
  if (hard.code === 0 && signalled.length === 0) signalled.push(root);
  if (hard.code === TASKKILL_NOT_FOUND) return { signalled, rootSurvives: false };
  return { signalled, rootSurvives: !(await waitGone(effects, root, KILL_SETTLE_MS)) };
}

/** killProcessTree with its effects injected (tests simulate taskkill and the table with them). */
export async function killTreeWith(
  pid: number,
  options: unknown,
  effects: WindowsKillEffects,
): Promise<KillReport> {
  const root = validatePid(pid, effects.selfPid);
  const graceMs = resolveGraceMs(validateOptions<KillTreeOptions>(options).graceMs);
  // The tree as it is before anything dies: afterwards a dead parent's children can only be
  // told apart from strangers by what was known of it.
  const before = await readTable(effects);
  const rootEntry = before?.find((p) => p.pid === root);
  const tree =
    before !== undefined && rootEntry !== undefined
      ? treeIn(before, [rootEntry], effects.selfPid)
      : undefined;

  const { signalled, rootSurvives } = await killRoot(effects, root, graceMs);
  const survivors = rootSurvives ? [root] : [];
  if (tree === undefined) return { signalled, survivors };
  const swept = await sweepLeftovers(effects, tree, root);
  return {
    signalled: sortedUnique([...signalled, ...swept.signalled]),
    survivors: sortedUnique([...survivors, ...swept.survivors]),
  };
}

/**
 * Kills a process and its whole tree on Windows: `taskkill /PID <pid> /T` asks the tree to
 * close, the pid is polled until it is gone or `graceMs` (default 3000, an integer from 0 to 60000)
 * has passed, then `taskkill /PID <pid> /T /F` terminates what is left. taskkill.exe runs from
 * %SystemRoot%\System32 through execFile, without a shell. A pid that is already gone resolves
 * with nothing signalled.
 *
 * Rejects with ERR_INVALID_OPTION for a bad pid or graceMs, ERR_PROCESS_UNSUPPORTED off
 * Windows or when taskkill.exe cannot be started.
 *
 * @example
 * const report = await killProcessTree(child.pid!, { graceMs: 2000 });
 * if (report.survivors.length > 0) console.warn('still alive:', report.survivors);
 */
export async function killProcessTree(pid: number, options?: KillTreeOptions): Promise<KillReport> {
  return killTreeWith(pid, options, windowsKillEffects());
}
