// Which processes belong to a tree: pure functions over one snapshot of the process table.
import type { ProcessEntry } from './types.js';

/** What identifies a tree across snapshots, and what must never be touched. */
export interface TreeContext {
  readonly rootPid: number;
  readonly selfPid: number;
  /** Our own process group, never signalled; undefined when unknown (then no group is). */
  readonly selfPgid: number | undefined;
  /** Tree markers whose carriers belong to the tree wherever they are. */
  readonly markers: ReadonlySet<string>;
}

/** The tree as found in one snapshot. */
export interface TreeMembers {
  /** Live processes of the tree (zombies left out), never pid 1 or ourselves. */
  readonly members: ProcessEntry[];
  /** Process groups to signal as a whole: led by the root or by a member, never ours. */
  readonly groups: number[];
  /** Every entry counted in, zombies included (they keep their group's id): the next `known`. */
  readonly all: ReadonlyMap<number, ProcessEntry>;
}

/** True when both entries describe the same process, not a later one that reused the pid. */
export function sameProcess(a: ProcessEntry, b: ProcessEntry): boolean {
  return (
    a.pid === b.pid && (a.startTime === undefined || b.startTime === undefined || a.startTime === b.startTime)
  );
}

/** Whether an entry is a process that can still act (zombies and dead ones cannot). */
export function isLiveEntry(entry: ProcessEntry): boolean {
  return entry.state !== 'Z' && entry.state !== 'X' && entry.state !== 'x';
}

function indexBy(table: readonly ProcessEntry[], key: 'ppid' | 'pgid'): Map<number, ProcessEntry[]> {
  const index = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const list = index.get(entry[key]);
    if (list === undefined) index.set(entry[key], [entry]);
    else list.push(entry);
  }
  return index;
}

/**
 * The markers that identify the root's tree: the root's own, or, when the root is gone (or a
 * zombie, whose environment reads empty), those of its surviving process group. Our own
 * marker is never one of them: every sibling of ours carries it too.
 */
export function treeMarkers(
  table: readonly ProcessEntry[],
  rootPid: number,
  selfMarker: string | undefined,
  explicit: string | undefined,
): Set<string> {
  const markers = new Set<string>();
  if (explicit !== undefined) markers.add(explicit);
  const root = table.find((entry) => entry.pid === rootPid);
  if (root?.marker !== undefined) markers.add(root.marker);
  else {
    for (const entry of table) {
      if (entry.pgid === rootPid && entry.marker !== undefined) markers.add(entry.marker);
    }
  }
  if (selfMarker !== undefined) markers.delete(selfMarker);
  return markers;
}

/**
 * Collects the tree of `context.rootPid` from one snapshot: the root, every descendant by
 * parent pid, every member of a process group the tree leads, and every process carrying one
 * of the tree's markers (setsid escapees, even those reparented to init), to a fixed point.
 *
 * `known` holds the members of earlier snapshots: they seed the walk when they are still the
 * same processes, so children forked during the grace are found after their parent died.
 * With no `known` (the first snapshot), whatever runs at rootPid is the root.
 */
export function collectTree(
  table: readonly ProcessEntry[],
  context: TreeContext,
  known: ReadonlyMap<number, ProcessEntry> = new Map(),
): TreeMembers {
  const byPid = new Map(table.map((entry) => [entry.pid, entry]));
  const children = indexBy(table, 'ppid');
  const byGroup = indexBy(table, 'pgid');
  const all = new Map<number, ProcessEntry>();
  const queue: ProcessEntry[] = [];
  const add = (entry: ProcessEntry): void => {
    if (entry.pid <= 1 || entry.pid === context.selfPid || all.has(entry.pid)) return;
    all.set(entry.pid, entry);
    queue.push(entry);
  };

  const root = byPid.get(context.rootPid);
  if (root !== undefined && known.size === 0) add(root);
  for (const entry of known.values()) {
    const current = byPid.get(entry.pid);
    if (current !== undefined && sameProcess(current, entry)) add(current);
  }
  if (context.markers.size > 0) {
    for (const entry of table)
      if (entry.marker !== undefined && context.markers.has(entry.marker)) add(entry);
  }

  const groups = new Set<number>();
  const isOurGroup = (pgid: number): boolean => {
    if (pgid <= 1 || pgid === context.selfPgid || context.selfPgid === undefined) return false;
    if (!byGroup.has(pgid)) return false;
    if (all.has(pgid)) return true;
    // A group whose leader (the root) is gone: its id cannot be reused while it has members.
    return pgid === context.rootPid && !byPid.has(pgid);
  };
  for (;;) {
    while (queue.length > 0) {
      const entry = queue.pop()!;
      for (const child of children.get(entry.pid) ?? []) add(child);
    }
    for (const pgid of [context.rootPid, ...all.keys()]) {
      if (groups.has(pgid) || !isOurGroup(pgid)) continue;
      groups.add(pgid);
      // isOurGroup found members in it.
      for (const entry of byGroup.get(pgid)!) add(entry);
    }
    if (queue.length === 0) break;
  }

  const members = [...all.values()].filter(isLiveEntry).sort((a, b) => a.pid - b.pid);
  return { members, groups: [...groups].sort((a, b) => a - b), all };
}
