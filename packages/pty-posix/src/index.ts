export {
  type LoadPtyBackendOptions,
  loadPtyBackend,
  PTY_BACKEND_ENV,
  type PtyBackendFailure,
  type PtyBackendPreference,
} from './load-backend.js';
export type { NativePtyProcess, PtyBackend, PtyBackendName, PtyNativeModule } from './native.js';
export { createPtyAdapter, PtyAdapter } from './pty-adapter.js';
export type { PosixPtyOptions } from './spawn-options.js';
export { type OpenStdinTerminalOptions, openStdinTerminal, type StdinTerminal } from './stdin-terminal.js';
