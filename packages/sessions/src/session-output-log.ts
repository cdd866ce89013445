import { OutputLog } from '@procmux/registry';
import type { SessionContext } from './context.js';

/** A session's output log, with the registry's caps and spill dir. */
export function sessionOutputLog(context: SessionContext): OutputLog {
  const { limits } = context;
  return new OutputLog({
    maxRetainedBytes: limits.maxOutputBytes,
    maxUndrainedBytes: limits.maxUndrainedBytes,
    maxChunkBytes: limits.maxOutputChunkBytes,
    memoryBytes: limits.maxOutputMemoryBytes,
    ...(context.outputSpillDir !== undefined ? { spillDir: context.outputSpillDir } : {}),
  });
}
