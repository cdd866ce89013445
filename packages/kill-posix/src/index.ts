export type { KillReport } from '@procmux/core-types';
export { killProcessTree, type PosixKillOptions } from './kill-tree.js';
export { type SnapshotTreeOptions, snapshotProcessTree } from './snapshot.js';
export type { ProcessEntry } from './types.js';
