// The public face of @procmux/sessions: every name here is listed in the README's "Exports".

export {
  type SandboxOptions,
  type SandboxPolicy,
  type SandboxViolation,
  violationLine,
} from '@procmux/sandbox-linux';
export type { Containment, ResourceLimits, ResourceUsage } from '@procmux/supervisor';
export { lfToCrlf } from './asciicast.js';
export type { BackendExit } from './backend-adapter.js';
export type { ContainmentMode } from './containment.js';
export { resolveSessionCwd } from './cwd.js';
export { createMemoryRecoveryStores, type MemoryRecoveryStores } from './durable/memory-store.js';
export type { DurabilityOptions, RecoveryLimits, ResolvedRecoveryLimits } from './durable/options.js';
export type { RecoveryOutcome, RecoveryOutcomeKind, RecoveryReport } from './durable/report.js';
export { commandFingerprint } from './fingerprint.js';
export type { HumanControlLease, HumanControlState } from './human-control.js';
export type { InputConfidence } from './input/detector.js';
export type { InputWait } from './input/input-watch.js';
export { pollsStdin } from './input/polls-stdin.js';
export { kernelInputDetection } from './input/session-input.js';
export type { SessionLifetime } from './lifetime.js';
export {
  PROCESS_SESSION_LIMITS,
  type ProcessSessionLimits,
  type ResolvedProcessSessionLimits,
} from './limits.js';
export type { AgentIdentity, OwnershipScope } from './owner.js';
export type { ExecutionPolicy, PolicyAction, PolicyDecision, PolicyRequest } from './policy.js';
export type { ProcessSession } from './process-session.js';
export type { ProcessPtyBackend, PtyBackendHandle, PtyStartRequest } from './pty-backend.js';
export { createProcessSessions, ENDED_SESSIONS_LIMIT, type ProcessSessions } from './registry.js';
export type { ProcessSandboxBackend, SandboxProcessHandle, SandboxStartRequest } from './sandbox.js';
export type { SessionWatchEvent, SessionWatcher } from './session-watch.js';
export { DEFAULT_SESSION_COLUMNS, DEFAULT_SESSION_ROWS, type TerminalRequest } from './terminal.js';
export type {
  LogResult,
  OutputPage,
  PollResult,
  ProcessSessionsOptions,
  ProcessStartRequest,
  SessionMetadata,
  SessionSandboxState,
  WaitOutcome,
} from './types.js';
