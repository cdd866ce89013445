import {
  BACKEND_METADATA_BYTES_LIMIT,
  INPUT_BYTES_LIMIT,
  invalidOption,
  knownKeys,
  LIFETIME_MS_LIMIT,
  type Limit,
  OUTPUT_CHUNK_BYTES_LIMIT,
  OUTPUT_MEMORY_BYTES_LIMIT,
  OUTPUT_TOTAL_BYTES_LIMIT,
  PTY_ATTACH_TIMEOUT_MS_LIMIT,
  RESIZE_PER_MINUTE_LIMIT,
  resolveLimit,
  SESSIONS_LIMIT,
  TERM_BYTES_LIMIT,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
  UNDRAINED_BYTES_LIMIT,
} from '@procmux/core-types';

/** Caps a host may lower or raise up to the hard limit; every field is optional. */
export interface ProcessSessionLimits {
  /** Live (starting or running) sessions per registry: 8, hard 32. */
  maxSessions?: number;
  /** Bytes per input/paste/sendKeys call: 64 KiB, hard 1 MiB. */
  maxInputBytes?: number;
  /** Lifetime of a session before it expires: 4 h, hard 24 h. */
  maxLifetimeMs?: number;
  /** Bytes per output() page: 50 KiB, hard 1 MiB. */
  maxOutputChunkBytes?: number;
  /** Output history kept per session: 64 MiB, hard 1 GiB. */
  maxOutputBytes?: number;
  /** Of that history, bytes held in memory (the rest spills to a file): 4 MiB, hard 1 GiB. */
  maxOutputMemoryBytes?: number;
  /** Output kept for poll() between two polls: 30,000 bytes, hard 1 GiB. */
  maxUndrainedBytes?: number;
  /** How long a host PTY backend may take to attach: 30 s, hard 120 s. */
  maxPtyAttachTimeoutMs?: number;
  /** Resizes per minute per session: 60, hard 600. */
  maxResizesPerMinute?: number;
  /** Serialized bytes of a PTY backend's metadata: 4 KiB, hard 16 KiB. */
  maxPtyBackendMetadataBytes?: number;
  /** Widest terminal a request may ask for: 120, hard 500. */
  maxTerminalColumns?: number;
  /** Tallest terminal a request may ask for: 40, hard 200. */
  maxTerminalRows?: number;
  /** Longest TERM value in bytes: 64, hard 256. */
  maxTermBytes?: number;
}

export type ResolvedProcessSessionLimits = Required<ProcessSessionLimits>;

const TABLE: Record<keyof ProcessSessionLimits, Limit> = {
  maxSessions: SESSIONS_LIMIT,
  maxInputBytes: INPUT_BYTES_LIMIT,
  maxLifetimeMs: LIFETIME_MS_LIMIT,
  maxOutputChunkBytes: OUTPUT_CHUNK_BYTES_LIMIT,
  maxOutputBytes: OUTPUT_TOTAL_BYTES_LIMIT,
  maxOutputMemoryBytes: OUTPUT_MEMORY_BYTES_LIMIT,
  maxUndrainedBytes: UNDRAINED_BYTES_LIMIT,
  maxPtyAttachTimeoutMs: PTY_ATTACH_TIMEOUT_MS_LIMIT,
  maxResizesPerMinute: RESIZE_PER_MINUTE_LIMIT,
  maxPtyBackendMetadataBytes: BACKEND_METADATA_BYTES_LIMIT,
  maxTerminalColumns: TERMINAL_COLUMNS_LIMIT,
  maxTerminalRows: TERMINAL_ROWS_LIMIT,
  maxTermBytes: TERM_BYTES_LIMIT,
};

/** The limit table: each cap's default and hard maximum. */
export const PROCESS_SESSION_LIMITS: Readonly<Record<keyof ProcessSessionLimits, Limit>> = TABLE;

/**
 * Fills in defaults and checks every given value is an integer in [1, hard]. An unknown key
 * or a bad value is ERR_INVALID_OPTION: a typo must not silently leave a default in force.
 */
export function resolveProcessSessionLimits(limits: ProcessSessionLimits = {}): ResolvedProcessSessionLimits {
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    throw invalidOption('limits', 'an object of optional integer caps', { value: limits });
  }
  knownKeys('limits', limits, Object.keys(TABLE));
  const out = {} as ResolvedProcessSessionLimits;
  for (const [key, limit] of Object.entries(TABLE) as [keyof ProcessSessionLimits, Limit][]) {
    out[key] = resolveLimit(`limits.${key}`, limits[key], limit);
  }
  return out;
}
