export type { KillReport, KillTreeOptions } from '@procmux/core-types';
export { killProcessTree } from './kill-tree.js';
