export { type AsciicastSource, asciicast, lfToCrlf } from './asciicast.js';
export type { BackendExit, BackendHandle } from './backend-adapter.js';
export { resolveSessionCwd } from './cwd.js';
export { createMemoryRecoveryStores, type MemoryRecoveryStores } from './durable/memory-store.js';
export type { DurabilityOptions, RecoveryLimits, ResolvedRecoveryLimits } from './durable/options.js';
export type { RecoveryOutcome, RecoveryOutcomeKind, RecoveryReport } from './durable/report.js';
export { commandFingerprint } from './fingerprint.js';
export type { HumanControlLease, HumanControlState } from './human-control.js';
export {
  createInputDetector,
  type InputConfidence,
  type InputDetector,
  type InputProbe,
  type ProbeFacts,
} from './input/detector.js';
export { heuristicWaiting, promptLine } from './input/heuristic.js';
export type { InputWait } from './input/input-watch.js';
export {
  type KernelTarget,
  type KernelVerdict,
  kernelWaiting,
  type ProcEffects,
} from './input/kernel-detect.js';
export { linuxProcEffects } from './input/node-effects.js';
export { kernelInputDetection } from './input/session-input.js';
export type { SessionLifetime } from './lifetime.js';
export {
  PROCESS_SESSION_LIMITS,
  type ProcessSessionLimits,
  type ResolvedProcessSessionLimits,
  resolveProcessSessionLimits,
} from './limits.js';
export { MAX_TIMELINE_MARKS, OutputTimeline, type TimelineResize } from './output-timeline.js';
export { type AgentIdentity, type OwnershipScope, resolveOwnerKey } from './owner.js';
export {
  type ExecutionPolicy,
  enforcePolicy,
  type PolicyAction,
  type PolicyDecision,
  type PolicyRequest,
} from './policy.js';
export {
  isNativePtyBackend,
  type NativePtyBackend,
  nativePtyBackend,
  type ProcessPtyBackend,
  type PtyBackendHandle,
  type PtyStartRequest,
} from './pty-backend.js';
export { createProcessSessions, ENDED_SESSIONS_LIMIT, type ProcessSessions } from './registry.js';
export type { ProcessSandboxBackend, SandboxProcessHandle, SandboxStartRequest } from './sandbox.js';
export { ProcessSession } from './session.js';
export type { SessionWatchEvent, SessionWatcher } from './session-watch.js';
export {
  DEFAULT_SESSION_COLUMNS,
  DEFAULT_SESSION_ROWS,
  type ResolvedTerminal,
  type TerminalRequest,
} from './terminal.js';
export type {
  LogResult,
  OutputPage,
  PollResult,
  ProcessSessionsOptions,
  ProcessStartRequest,
  SessionMetadata,
  WaitOutcome,
} from './types.js';
