// The public face of @procmux/registry: every name here is listed in the README's "Exports".
export {
  PROCESS_SESSION_LIMITS,
  type ProcessSessionLimits,
  type ResolvedProcessSessionLimits,
  resolveProcessSessionLimits,
} from './limits.js';
export { monoNow } from './mono-clock.js';
export { type AgentIdentity, type OwnershipScope, resolveOwnerKey } from './owner.js';
export {
  ENDED_SESSIONS_LIMIT,
  endedToDrop,
  FINISHED_TTL_MS_LIMIT,
  type RetainedRecord,
  type RetentionRule,
} from './retention.js';
export {
  type BookedSession,
  idTaken,
  lookUp,
  ownedBy,
  reserveSlot,
  type SessionBook,
  type SweepRule,
  sweepBook,
} from './session-book.js';
export { drawSessionId, newSessionId } from './session-id.js';
