import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { collectTree, isLiveEntry, sameProcess, type TreeContext, treeMarkers } from '../src/tree.js';
import type { ProcessEntry } from '../src/types.js';

function p(pid: number, ppid: number, pgid: number, extra: Partial<ProcessEntry> = {}): ProcessEntry {
  return { pid, ppid, pgid, state: 'S', startTime: pid, marker: undefined, ...extra };
}

const SELF = 50;
const base = [p(1, 0, 1), p(SELF, 1, 40)];
const context = (rootPid: number, markers: string[] = [], selfPgid: number | null = 40): TreeContext => ({
  rootPid,
  selfPid: SELF,
  selfPgid: selfPgid ?? undefined,
  markers: new Set(markers),
});
const pids = (entries: readonly ProcessEntry[]) => entries.map((e) => e.pid);

describe('collectTree', () => {
  it('takes the root, its descendants by parent pid and the group it leads', () => {
    const table = [
      ...base,
      p(100, SELF, 100),
      p(101, 100, 100),
      p(102, 101, 102), // left the group, still a descendant
      p(103, 1, 100), // reparented, still in the group
      p(104, 102, 102),
      p(900, 1, 900), // unrelated
    ];
    const tree = collectTree(table, context(100));
    expect(pids(tree.members)).toEqual([100, 101, 102, 103, 104]);
    expect(tree.groups).toEqual([100, 102]);
  });

  it('takes every carrier of a marker, wherever it sits, and its descendants', () => {
    const table = [
      ...base,
      p(100, SELF, 100),
      p(200, 1, 200, { marker: 'm' }),
      p(201, 200, 200),
      p(300, 1, 300),
    ];
    expect(pids(collectTree(table, context(100, ['m'])).members)).toEqual([100, 200, 201]);
    expect(pids(collectTree(table, context(100)).members)).toEqual([100]);
  });

  it('never takes pid 1 or ourselves, nor walks through us', () => {
    const table = [p(1, 0, 100, { marker: 'm' }), p(SELF, 100, 40), p(100, 1, 100), p(60, SELF, 60)];
    const tree = collectTree(table, context(100, ['m']));
    expect(pids(tree.members)).toEqual([100]);
  });

  it('never signals our own group, nor any group when ours is unknown', () => {
    const table = [...base, p(100, SELF, 40), p(101, 100, 40), p(102, 100, 102)];
    expect(collectTree(table, context(100)).groups).toEqual([102]);
    expect(collectTree(table, context(100, [], null)).groups).toEqual([]);
    expect(pids(collectTree(table, context(100, [], null)).members)).toEqual([100, 101, 102]);
  });

  it('does not signal a group an outsider leads, though a member sits in it', () => {
    const table = [...base, p(700, 1, 700), p(100, SELF, 700), p(701, 700, 700)];
    const tree = collectTree(table, context(100));
    expect(pids(tree.members)).toEqual([100]);
    expect(tree.groups).toEqual([]);
  });

  it('takes the surviving group of a root that is gone', () => {
    const table = [...base, p(101, 1, 100), p(102, 101, 100)];
    const tree = collectTree(table, context(100));
    expect(pids(tree.members)).toEqual([101, 102]);
    expect(tree.groups).toEqual([100]);
  });

  it('leaves zombies out of the members but lets a zombie root keep its group', () => {
    const table = [
      ...base,
      p(100, SELF, 100, { state: 'Z' }),
      p(101, 1, 100),
      p(102, 1, 100, { state: 'Z' }),
    ];
    const tree = collectTree(table, context(100));
    expect(pids(tree.members)).toEqual([101]);
    expect(tree.groups).toEqual([100]);
    expect([...tree.all.keys()].sort()).toEqual([100, 101, 102]);
  });

  it('in a later snapshot, walks from the known members that are still the same processes', () => {
    const first = [...base, p(100, SELF, 100), p(101, 100, 100)];
    const known = collectTree(first, context(100)).all;
    // The root died; 101 forked 150 into a new group; pid 100 went to an unrelated process.
    const later = [
      ...base,
      p(100, 1, 100, { startTime: 9999 }),
      p(101, 1, 100),
      p(150, 101, 150),
      p(151, 100, 100),
    ];
    const tree = collectTree(later, context(100), known);
    expect(pids(tree.members)).toEqual([101, 150]);
    expect(tree.groups).toEqual([150]);
  });
});

describe('treeMarkers', () => {
  const table = [
    p(100, 1, 100, { marker: 'root' }),
    p(101, 100, 100, { marker: 'root' }),
    p(102, 1, 100, { marker: 'x' }),
  ];

  it("is the root's marker, plus an explicit one", () => {
    expect([...treeMarkers(table, 100, undefined, undefined)]).toEqual(['root']);
    expect([...treeMarkers(table, 100, undefined, 'extra')].sort()).toEqual(['extra', 'root']);
  });

  it('falls back to the markers of the surviving group when the root is gone', () => {
    expect([...treeMarkers(table.slice(1), 100, undefined, undefined)].sort()).toEqual(['root', 'x']);
  });

  it('never includes our own marker', () => {
    expect([...treeMarkers(table, 100, 'root', 'root')]).toEqual([]);
  });
});

checkLeaksAfterAll();

describe('sameProcess and isLiveEntry', () => {
  it('is the same process when the pids match and either start time is unknown or both agree', () => {
    expect(sameProcess(p(7, 1, 7, { startTime: 10 }), p(7, 1, 7, { startTime: 10 }))).toBe(true);
    expect(sameProcess(p(7, 1, 7, { startTime: 10 }), p(7, 1, 7, { startTime: 11 }))).toBe(false);
    expect(sameProcess(p(7, 1, 7, { startTime: undefined }), p(7, 1, 7, { startTime: 11 }))).toBe(true);
    expect(sameProcess(p(7, 1, 7, { startTime: 10 }), p(7, 1, 7, { startTime: undefined }))).toBe(true);
    expect(sameProcess(p(7, 1, 7), p(8, 1, 7, { startTime: 7 }))).toBe(false);
  });

  it('counts zombies and dead entries (Z, X, x) out, every other state in', () => {
    for (const state of ['Z', 'X', 'x']) expect(isLiveEntry(p(7, 1, 7, { state }))).toBe(false);
    for (const state of ['S', 'R', 'D', 'T', '']) expect(isLiveEntry(p(7, 1, 7, { state }))).toBe(true);
  });
});

describe('collectTree, the edges', () => {
  it('lists the groups it will signal in ascending order', () => {
    // Found in the order 300, 310, 305 (the table's): the group leaders are children of the root.
    const table = [
      ...base,
      p(300, SELF, 300),
      p(310, 300, 310),
      p(305, 300, 305),
      p(311, 1, 310),
      p(306, 1, 305),
    ];
    const tree = collectTree(table, context(300));
    expect(tree.groups).toEqual([300, 305, 310]);
    expect(pids(tree.members)).toEqual([300, 305, 306, 310, 311]);
  });

  it('signals no group at all when our own group is unknown, and never group 1 or ours', () => {
    const table = [...base, p(300, SELF, 300), p(301, 1, 300), p(302, 300, 40), p(303, 300, 1)];
    expect(collectTree(table, context(300, [], null)).groups).toEqual([]);
    const tree = collectTree(table, context(300));
    expect(tree.groups).toEqual([300]);
    expect(pids(tree.members)).toEqual([300, 301, 302, 303]);
  });

  it('takes only the carriers of its markers, none when it has none', () => {
    const table = [
      ...base,
      p(300, SELF, 300),
      p(400, 1, 400, { marker: 'm-1' }),
      p(401, 1, 401, { marker: 'other' }),
    ];
    expect(pids(collectTree(table, context(300)).members)).toEqual([300]);
    expect(pids(collectTree(table, context(300, ['m-1'])).members)).toEqual([300, 400]);
  });
});

describe('collectTree, our own group and the walk to a fixed point', () => {
  it('never signals our own group, even when a member of the tree leads it', () => {
    // We were started inside the root's group (not detached): signalling it would end us too.
    const table = [p(1, 0, 1), p(SELF, 100, 100), p(100, 1, 100), p(101, 100, 100)];
    const tree = collectTree(table, context(100, [], 100));
    expect(tree.groups).toEqual([]);
    expect(pids(tree.members)).toEqual([100, 101]);
  });

  it('walks the children of a process found only through its group, and their groups', () => {
    const table = [
      ...base,
      p(100, SELF, 100),
      p(103, 1, 100), // reparented: found only as a member of the root's group
      p(105, 103, 105), // its child, which leads a group of its own
      p(106, 1, 105), // found only through that group
    ];
    const tree = collectTree(table, context(100));
    expect(pids(tree.members)).toEqual([100, 103, 105, 106]);
    expect(tree.groups).toEqual([100, 105]);
  });
});

describe('treeMarkers, the edges', () => {
  it('takes the markers of the root group only, and never our own', () => {
    const table = [...base, p(301, 1, 300, { marker: 'a' }), p(302, 1, 302, { marker: 'b' }), p(303, 1, 300)];
    expect([...treeMarkers(table, 300, undefined, undefined)]).toEqual(['a']);
    expect([...treeMarkers(table, 300, 'a', undefined)]).toEqual([]);
    expect([...treeMarkers(table, 300, 'zzz', 'x')].sort()).toEqual(['a', 'x']);
  });
});
