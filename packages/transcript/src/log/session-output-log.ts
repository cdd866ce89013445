import { OutputLog } from './output-log.js';
import type { SessionLogCaps } from './session-log-caps.js';

/** A session's output log, with the registry's caps and spill dir. */
export function sessionOutputLog(context: SessionLogCaps): OutputLog {
  const { limits } = context;
  return new OutputLog({
    maxRetainedBytes: limits.maxOutputBytes,
    maxUndrainedBytes: limits.maxUndrainedBytes,
    maxChunkBytes: limits.maxOutputChunkBytes,
    memoryBytes: limits.maxOutputMemoryBytes,
    ...(context.outputSpillDir !== undefined ? { spillDir: context.outputSpillDir } : {}),
  });
}
