export {
  abortError,
  ERROR_CODES,
  isProcmuxError,
  ProcmuxError,
  type ProcmuxErrorCode,
  type ProcmuxErrorOptions,
} from './errors.js';
export * from './limits.js';
export { OutputChannel } from './output-channel.js';
export type {
  AdapterStdin,
  Disposer,
  KillMode,
  KillPlatformModule,
  KillReport,
  KillTreeOptions,
  Logger,
  ManagedRun,
  ProcessAdapter,
  PtyAdapterStdin,
  PtyPlatformModule,
  PtyProcessAdapter,
  PtySpawnOptions,
  RunExit,
  SignalName,
  SpawnTarget,
  StdinMode,
  StdioMode,
  TerminationReason,
  WaitResult,
} from './process.js';
export {
  isTerminalState,
  type ProcessEvent,
  type ProcessEventType,
  type SessionState,
  TERMINAL_SESSION_STATES,
} from './session.js';
export { createTreeMarker, withTreeMarker } from './tree-marker.js';
export { describe, resolveLimit } from './validate.js';
