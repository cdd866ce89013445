// Defaults and hard caps. A value outside [1, hard] is an ERR_INVALID_OPTION, never clamped.

export interface Limit {
  readonly default: number;
  readonly hard: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const HOUR = 60 * 60 * 1000;

/** Live sessions per registry. */
export const SESSIONS_LIMIT: Limit = { default: 8, hard: 32 };
/** Bytes accepted by one input/paste/sendKeys call. */
export const INPUT_BYTES_LIMIT: Limit = { default: 64 * KiB, hard: MiB };
/** A session's lifetime before it expires. */
export const LIFETIME_MS_LIMIT: Limit = { default: 4 * HOUR, hard: 24 * HOUR };
/** Bytes returned by one output read. */
export const OUTPUT_CHUNK_BYTES_LIMIT: Limit = { default: 50 * KiB, hard: MiB };
/** Output history retained per session. */
export const OUTPUT_TOTAL_BYTES_LIMIT: Limit = { default: 64 * MiB, hard: GiB };
/** Output history held in memory per session; the rest of the history is in a spill file. */
export const OUTPUT_MEMORY_BYTES_LIMIT: Limit = { default: 4 * MiB, hard: GiB };
/** Output not yet drained by poll; the effective cap is min(this, retained history). */
export const UNDRAINED_BYTES_LIMIT: Limit = { default: 30_000, hard: GiB };
/** How long a host PTY backend may take to attach. */
export const PTY_ATTACH_TIMEOUT_MS_LIMIT: Limit = { default: 30_000, hard: 120_000 };
/** Resizes per minute per session. */
export const RESIZE_PER_MINUTE_LIMIT: Limit = { default: 60, hard: 600 };
/** Serialized size of a backend's metadata. */
export const BACKEND_METADATA_BYTES_LIMIT: Limit = { default: 4 * KiB, hard: 16 * KiB };
/** Terminal columns and rows of a PTY session. */
export const TERMINAL_COLUMNS_LIMIT: Limit = { default: 120, hard: 500 };
export const TERMINAL_ROWS_LIMIT: Limit = { default: 40, hard: 200 };
/** Bytes of the TERM value. */
export const TERM_BYTES_LIMIT: Limit = { default: 64, hard: 256 };
/** Durable records per store namespace. */
export const RECOVERY_RECORDS_LIMIT: Limit = { default: 32, hard: 128 };
/** Lease time to live. */
export const LEASE_TTL_MS_LIMIT: Limit = { default: 30_000, hard: 300_000 };
/** Re-attach through a recovery backend. */
export const RECOVERY_ATTACH_TIMEOUT_MS_LIMIT: Limit = { default: 30_000, hard: 120_000 };

/** Bytes of stdout and of stderr a ManagedRun captures for its RunExit. */
export const DEFAULT_MAX_CAPTURE_BYTES = MiB;
/** How long wait() waits for pipes to drain after the exit (a grandchild may hold them). */
export const DEFAULT_DRAIN_TIMEOUT_MS = 250;
/** A PTY that reports no exit this long after a force kill settles as SIGKILL. */
export const FORCE_KILL_SETTLE_MS = 4_000;
/** Grace between SIGTERM and SIGKILL in a tree kill, and its bounds. */
export const DEFAULT_KILL_GRACE_MS = 3_000;
export const MAX_KILL_GRACE_MS = 60_000;
/** Characters kept in an output log's tail. */
export const TAIL_CHARS = 2_000;
/** Finished sessions are kept this long. */
export const DEFAULT_FINISHED_TTL_MS = 30 * 60 * 1000;
/** Default terminal of the PTY adapters and the screen. */
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 30;
export const DEFAULT_TERM = 'xterm-256color';
export const DEFAULT_SCROLLBACK = 5_000;

/**
 * Environment variable procmux puts in every child it starts. Its value names the tree
 * (`<host pid>-<run>`), so a tree kill can find descendants that left the process group
 * with setsid, even after their parent exited (they inherit the environment).
 */
export const TREE_MARKER_ENV = 'PROCMUX_TREE';
