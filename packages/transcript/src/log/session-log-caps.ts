/** The caps a session's log is made with: the registry's resolved limits and spill dir. */
export interface SessionLogCaps {
  readonly limits: {
    readonly maxOutputBytes: number;
    readonly maxUndrainedBytes: number;
    readonly maxOutputChunkBytes: number;
    readonly maxOutputMemoryBytes: number;
  };
  readonly outputSpillDir?: string | undefined;
}
