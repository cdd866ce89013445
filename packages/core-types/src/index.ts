export {
  abortError,
  ERROR_CODES,
  isProcmuxError,
  ProcmuxError,
  type ProcmuxErrorCode,
  type ProcmuxErrorOptions,
} from './errors.js';
export { resolveGraceMs, validateOptionsObject } from './kill-options.js';
export * from './limits.js';
export { containLogger, loggerOption } from './logger.js';
export {
  booleanOption,
  describe,
  envOption,
  exactlyOne,
  functionOption,
  type IntegerRange,
  type InvalidOptionDetails,
  type InvalidOptionFacts,
  integerOption,
  invalidOption,
  knownKeys,
  nonEmptyString,
  oneOf,
  optionsObject,
  resolveLimit,
  type StringRule,
  stringArrayOption,
} from './option-checks.js';
export { OutputChannel } from './output-channel.js';
export type {
  AdapterStdin,
  Disposer,
  KillMode,
  KillPlatformModule,
  KillReport,
  KillTreeOptions,
  LeftoverProcess,
  Logger,
  ManagedRun,
  OutputListener,
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
  type CheckpointEntry,
  type CheckpointStore,
  type CheckpointWrite,
  type Lease,
  type LeaseStore,
  type ProcessRecord,
  type ProcessRecoveryBackend,
  RECOVERY_NAMESPACE,
  RECOVERY_RECORD_BYTES,
  RECOVERY_REF_BYTES,
  RECOVERY_SCHEMA_VERSION,
  type RecordedSandbox,
  type RecoveredProcessExit,
  type RecoveredProcessHandle,
  type RecoveryAttachRequest,
} from './recovery.js';
export type { ScreenCursor, ScreenLike, ScreenModes } from './screen.js';
export {
  isTerminalState,
  type ProcessEvent,
  type ProcessEventType,
  type SessionState,
  TERMINAL_SESSION_STATES,
} from './session.js';
export { type CheckedSpawnTarget, checkSpawnTarget } from './spawn-target.js';
export type { StdinTerminal } from './stdin-terminal.js';
export {
  checkCheckpointDelete,
  checkCheckpointWrite,
  checkCompareAndSet,
  checkLeaseCall,
  checkStoreKey,
  checkStoreNamespace,
  fenceConflict,
} from './store-checks.js';
export { createTreeMarker, resolveTreeMarker, withTreeMarker } from './tree-marker.js';
export { Utf8ChunkDecoder } from './utf8-decoder.js';
