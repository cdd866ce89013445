// The public face of @procmux/sessions: every name here is listed in the README's "Exports".

export type { AgentIdentity, OwnershipScope } from '@procmux/registry';
export {
  PROCESS_SESSION_LIMITS,
  type ProcessSessionLimits,
  type ResolvedProcessSessionLimits,
} from '@procmux/registry';
export {
  type SandboxOptions,
  type SandboxPolicy,
  type SandboxViolation,
  violationLine,
} from '@procmux/sandbox-linux';
export type { Containment, ResourceLimits, ResourceUsage } from '@procmux/supervisor';
export { lfToCrlf } from '@procmux/transcript';
export type { BackendExit } from './backends/backend-adapter.js';
export type { ContainmentMode } from './backends/containment.js';
export type { SessionLifetime } from './backends/lifetime.js';
export type { ProcessPtyBackend, PtyBackendHandle, PtyStartRequest } from './backends/pty-backend.js';
export type { ProcessSandboxBackend, SandboxProcessHandle, SandboxStartRequest } from './backends/sandbox.js';
export { createMemoryRecoveryStores, type MemoryRecoveryStores } from './durable/memory-store.js';
export type { DurabilityOptions, RecoveryLimits, ResolvedRecoveryLimits } from './durable/options.js';
export type { RecoveryOutcome, RecoveryOutcomeKind, RecoveryReport } from './durable/report.js';
export { resolveSessionCwd } from './host/cwd.js';
export { commandFingerprint } from './host/fingerprint.js';
export { createProcessSessions, ENDED_SESSIONS_LIMIT, type ProcessSessions } from './host/registry.js';
export type { InputConfidence } from './input-wait/detector.js';
export type { InputWait } from './input-wait/input-watch.js';
export { pollsStdin } from './input-wait/polls-stdin.js';
export { kernelInputDetection } from './input-wait/session-input.js';
export type { ProcessSession } from './process-session.js';
export type { HumanControlLease, HumanControlState } from './session/human-control.js';
export type { ExecutionPolicy, PolicyAction, PolicyDecision, PolicyRequest } from './session/policy.js';
export type { SessionWatchEvent, SessionWatcher } from './session/session-watch.js';
export { DEFAULT_SESSION_COLUMNS, DEFAULT_SESSION_ROWS, type TerminalRequest } from './session/terminal.js';
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
