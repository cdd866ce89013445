export {
  type OutputDrain,
  OutputLog,
  type OutputLogOptions,
  type OutputPage,
  type OutputReadOptions,
} from './output-log.js';
export {
  ENDED_SESSIONS_LIMIT,
  endedToDrop,
  FINISHED_TTL_MS_LIMIT,
  type RetainedRecord,
  type RetentionRule,
} from './retention.js';
export type { SpillFileSystem } from './spill-file.js';
export type { OutputStream } from './stream-runs.js';
