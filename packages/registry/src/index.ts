export {
  type OutputDrain,
  OutputLog,
  type OutputLogOptions,
  type OutputPage,
  type OutputReadOptions,
} from './output-log.js';
export {
  FINISHED_TTL_MS_LIMIT,
  MIN_SWEEP_INTERVAL_MS,
  type SessionRef,
  SessionRegistry,
  type SessionRegistryOptions,
} from './session-registry.js';
export { type FinishedStatus, finishedStatus, type SessionExit } from './status.js';
export type { OutputStream } from './stream-runs.js';
export type { Timers } from './sweeper.js';
export type {
  FinishedSession,
  RunningSession,
  SessionEntry,
  SessionInit,
  SessionMeta,
} from './types.js';
