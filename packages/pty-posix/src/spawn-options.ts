// Turns the caller's options into exactly what gets forked, refusing anything malformed.
import { resolve } from 'node:path';
import {
  DEFAULT_COLS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_ROWS,
  DEFAULT_TERM,
  describe,
  FORCE_KILL_SETTLE_MS,
  type KillReport,
  type KillTreeOptions,
  MAX_KILL_GRACE_MS,
  ProcmuxError,
  type PtySpawnOptions,
  resolveLimit,
  resolveTreeMarker,
  TERM_BYTES_LIMIT,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
  TREE_MARKER_ENV,
  withTreeMarker,
} from '@procmux/core-types';
import { shellWrap } from '@procmux/shell-wrap';
import type { PtyBackendPreference } from './load-backend.js';
import type { PtyBackend } from './native.js';

/** Options of the POSIX PTY adapter: the shared PtySpawnOptions plus this backend's knobs. */
export interface PosixPtyOptions extends PtySpawnOptions {
  /** A backend preference (default: PROCMUX_PTY_BACKEND, else 'auto') or an already loaded backend. */
  backend?: PtyBackendPreference | PtyBackend;
  /** How long wait() waits for the terminal to hang up after the program exited (default 250). */
  drainTimeoutMs?: number;
  /** A force kill that brings no exit within this many ms settles as SIGKILL (default 4000). */
  forceKillSettleMs?: number;
  /** Effect: the tree kill behind kill('force'); @procmux/kill-posix by default. */
  killTree?: (pid: number, options: KillTreeOptions & { marker?: string }) => Promise<KillReport>;
}

/** What gets forked, fully resolved. */
export interface ResolvedSpawn {
  file: string;
  args: string[];
  /** Absolute. */
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** The child's PROCMUX_TREE value. */
  marker: string;
}

/** Timers an adapter runs, resolved. */
export interface ResolvedTimings {
  drainTimeoutMs: number;
  forceKillSettleMs: number;
  killGraceMs: number;
}

// Variables that describe the parent's terminal, not the one the child gets (node-pty drops
// the same ones when it inherits process.env). COLUMNS/LINES would override the PTY's size.
const PARENT_TERMINAL_VARIABLES = [
  'TMUX',
  'TMUX_PANE',
  'STY',
  'WINDOW',
  'WINDOWID',
  'TERMCAP',
  'COLUMNS',
  'LINES',
];
const MAX_TIMER_MS = 60_000;

/**
 * Validates the options and resolves the command, cwd, environment and size. Throws
 * ERR_INVALID_OPTION saying what is allowed. Does not touch the file system: whether cwd and
 * the program exist is checked at spawn time (ERR_PROCESS_SPAWN).
 */
export function resolveSpawnOptions(
  options: PosixPtyOptions,
  processEnv: Readonly<Record<string, string | undefined>> = process.env,
  processCwd: string = process.cwd(),
): ResolvedSpawn {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalid('options', `options must be an object (got ${describe(options)})`);
  }
  const cwd = resolveCwd(options.cwd, processCwd);
  const cols = resolveLimit('cols', options.cols, {
    default: DEFAULT_COLS,
    hard: TERMINAL_COLUMNS_LIMIT.hard,
  });
  const rows = resolveLimit('rows', options.rows, { default: DEFAULT_ROWS, hard: TERMINAL_ROWS_LIMIT.hard });
  const term = resolveTerm(options.term);
  const base = options.env === undefined ? inheritedEnv(processEnv) : checkEnv(options.env);
  const env = withTreeMarker(base, resolveTreeMarker(options.treeMarker));
  env.TERM = term;
  env.PWD = cwd;
  const marker = env[TREE_MARKER_ENV]!;
  const { file, args } = resolveTarget(options, env);
  return { file, args, cwd, env, cols, rows, marker };
}

/** Validates the timer options, defaulting them. */
export function resolveTimings(options: PosixPtyOptions): ResolvedTimings {
  return {
    drainTimeoutMs: resolveMs('drainTimeoutMs', options.drainTimeoutMs, DEFAULT_DRAIN_TIMEOUT_MS),
    forceKillSettleMs: resolveMs('forceKillSettleMs', options.forceKillSettleMs, FORCE_KILL_SETTLE_MS),
    killGraceMs: resolveMs('killGraceMs', options.killGraceMs, DEFAULT_KILL_GRACE_MS, MAX_KILL_GRACE_MS),
  };
}

function resolveTarget(
  options: PosixPtyOptions,
  env: Record<string, string>,
): { file: string; args: string[] } {
  const { command, file, args, shell } = options;
  if ((command === undefined) === (file === undefined)) {
    throw invalid(
      'command',
      'give exactly one of command (a string run through a shell) or file (run with args, no shell)',
    );
  }
  if (command !== undefined) {
    if (args !== undefined)
      throw invalid('args', 'args go with file; a command string carries its own arguments');
    const wrapped = shellWrap(command, { platform: process.platform, shell, env });
    return { file: wrapped.file, args: wrapped.args };
  }
  if (shell !== undefined) throw invalid('shell', 'shell goes with command; file runs without a shell');
  if (typeof file !== 'string' || file === '' || file.includes('\0')) {
    throw invalid('file', `file must be a non-empty string without NUL (got ${describe(file)})`);
  }
  if (args !== undefined && (!Array.isArray(args) || !args.every(isExecString))) {
    throw invalid('args', `args must be an array of strings without NUL (got ${describe(args)})`);
  }
  return { file, args: [...(args ?? [])] };
}

function resolveCwd(cwd: unknown, processCwd: string): string {
  if (cwd === undefined) return processCwd;
  if (typeof cwd !== 'string' || cwd === '' || cwd.includes('\0')) {
    throw invalid('cwd', `cwd must be a non-empty path without NUL (got ${describe(cwd)})`);
  }
  return resolve(processCwd, cwd);
}

function resolveTerm(term: unknown): string {
  if (term === undefined) return DEFAULT_TERM;
  const ok =
    typeof term === 'string' &&
    /^[\x21-\x7e]+$/.test(term) &&
    Buffer.byteLength(term) <= TERM_BYTES_LIMIT.hard;
  if (ok) return term;
  throw invalid(
    'term',
    `term must be 1 to ${TERM_BYTES_LIMIT.hard} printable ASCII characters without spaces, ` +
      `like 'xterm-256color' (got ${describe(term)})`,
  );
}

function inheritedEnv(
  processEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const env = { ...processEnv };
  for (const name of PARENT_TERMINAL_VARIABLES) delete env[name];
  return env;
}

// Values are never shown: environments carry secrets.
function checkEnv(env: unknown): Readonly<Record<string, string | undefined>> {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw invalid('env', `env must be an object of strings (got ${describe(env)})`);
  }
  for (const [key, value] of Object.entries(env)) {
    if (key === '' || key.includes('=') || key.includes('\0')) {
      throw invalid('env', `env names must be non-empty without '=' or NUL (got ${describe(key)})`);
    }
    if (value !== undefined && !isExecString(value)) {
      throw invalid('env', `env.${key} must be a string without NUL, or undefined to leave it out`);
    }
  }
  return env as Readonly<Record<string, string | undefined>>;
}

function resolveMs(name: string, value: unknown, fallback: number, max = MAX_TIMER_MS): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max) return value;
  throw invalid(name, `${name} must be an integer from 0 to ${max} (got ${describe(value)})`);
}

function isExecString(value: unknown): value is string {
  return typeof value === 'string' && !value.includes('\0');
}

function invalid(option: string, message: string): ProcmuxError {
  return new ProcmuxError('ERR_INVALID_OPTION', message, { details: { option } });
}
