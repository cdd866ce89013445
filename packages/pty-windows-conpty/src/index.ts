export { createPtyAdapter, PtyAdapter } from './conpty-adapter.js';
export { type LoadNodePtyOptions, loadNodePty } from './load-node-pty.js';
export type {
  ConptyDisposable,
  ConptyModule,
  ConptySpawnOptions,
  ConptyTerminal,
} from './node-pty.js';
export type { ConptyOptions } from './spawn-options.js';
