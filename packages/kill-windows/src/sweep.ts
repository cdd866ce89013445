// Which processes of a snapshot belong to a tree: pure functions. Windows keeps an orphan's
// parent pid after the parent died and reuses pids, so a parent pid is matched to a process
// by creation time: a child's parent is the latest process with that pid created no later
// than the child. That keeps out processes whose parent pid only looks like a tree member's.
import type { WindowsProcess } from './process-table.js';

const key = (p: WindowsProcess) => `${p.pid}@${p.created}`;

/** Pids that are never part of a tree: the idle process and System. */
const SYSTEM_PIDS = new Set([0, 4]);

/**
 * The live members of a tree in `table`: processes of `known` (earlier snapshots' members,
 * dead ones included) still present as the same process, and every process whose parent
 * chain leads to one of them, to a fixed point. Never `selfPid`.
 */
export function treeIn(
  table: readonly WindowsProcess[],
  known: readonly WindowsProcess[],
  selfPid: number,
): WindowsProcess[] {
  const members = new Map(known.map((p) => [key(p), p]));
  const byPid = new Map<number, WindowsProcess[]>();
  for (const p of [...known, ...table]) {
    const list = byPid.get(p.pid);
    if (list === undefined) byPid.set(p.pid, [p]);
    else if (!list.some((q) => q.created === p.created)) list.push(p);
  }
  const parentOf = (child: WindowsProcess): WindowsProcess | undefined => {
    let best: WindowsProcess | undefined;
    for (const candidate of byPid.get(child.ppid) ?? []) {
      if (candidate.pid === child.pid || candidate.created > child.created) continue;
      if (best === undefined || candidate.created > best.created) best = candidate;
    }
    return best;
  };
  const eligible = table.filter((p) => !SYSTEM_PIDS.has(p.pid) && p.pid !== selfPid && p.created > 0);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of eligible) {
      if (members.has(key(p))) continue;
      const parent = parentOf(p);
      if (parent !== undefined && members.has(key(parent))) {
        members.set(key(p), p);
        grew = true;
      }
    }
  }
  return eligible.filter((p) => members.has(key(p))).sort((a, b) => a.pid - b.pid);
}
