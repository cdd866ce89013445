import { treeContextFor } from './kill-tree.js';
import { validateMarker, validateOptions, validatePid } from './options.js';
import { currentKillEffects } from './platform.js';
import { collectTree } from './tree.js';
import type { KillEffects, ProcessEntry } from './types.js';

/** Options of snapshotProcessTree. */
export interface SnapshotTreeOptions {
  /** A tree marker to include besides the root's own (see PosixKillOptions.marker). */
  marker?: string;
}

/** snapshotProcessTree with its effects injected. */
export async function snapshotTreeWith(
  pid: number,
  options: unknown,
  effects: KillEffects,
): Promise<ProcessEntry[]> {
  const rootPid = validatePid(pid, effects.selfPid);
  const marker = validateMarker(validateOptions<SnapshotTreeOptions>(options).marker);
  const table = await effects.snapshot();
  return collectTree(table, treeContextFor(table, rootPid, effects, marker)).members;
}

/**
 * The live processes killProcessTree(pid) would signal right now: the root, its descendants,
 * the process groups it leads and (Linux) every carrier of its tree marker. Sorted by pid;
 * empty when the pid is gone.
 *
 * @example
 * const tree = await snapshotProcessTree(child.pid!);
 * console.log(tree.map((p) => `${p.pid} (parent ${p.ppid}, group ${p.pgid})`));
 */
export async function snapshotProcessTree(
  pid: number,
  options?: SnapshotTreeOptions,
): Promise<ProcessEntry[]> {
  return snapshotTreeWith(pid, options, currentKillEffects());
}
