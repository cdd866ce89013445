// Turns the caller's options into exactly what gets forked, refusing anything malformed.
import { resolve } from 'node:path';
import {
  checkSpawnTarget,
  DEFAULT_DRAIN_TIMEOUT_MS,
  integerOption,
  type KillReport,
  type KillTreeOptions,
  type PtySpawnOptions,
  resolveTreeMarker,
  TREE_MARKER_ENV,
  withTreeMarker,
} from '@procmux/core-types';
import {
  checkPtyCwd,
  checkPtyEnv,
  checkPtyOptions,
  MAX_PTY_TIMER_MS,
  resolveKillTimings,
  resolvePtySize,
  resolvePtyTerm,
} from '@procmux/pty-core';
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
  checkPtyOptions(options);
  const given = checkPtyCwd(options.cwd);
  const cwd = given === undefined ? processCwd : resolve(processCwd, given);
  const { cols, rows } = resolvePtySize(options);
  const term = resolvePtyTerm(options.term);
  const base = options.env === undefined ? inheritedEnv(processEnv) : checkPtyEnv(options.env, false);
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
    ...resolveKillTimings(options),
    drainTimeoutMs: integerOption('drainTimeoutMs', options.drainTimeoutMs, {
      min: 0,
      max: MAX_PTY_TIMER_MS,
      default: DEFAULT_DRAIN_TIMEOUT_MS,
    }),
  };
}

function resolveTarget(
  options: PosixPtyOptions,
  env: Record<string, string>,
): { file: string; args: string[] } {
  const target = checkSpawnTarget(options);
  if ('file' in target) return target;
  const wrapped = shellWrap(target.command, { platform: process.platform, shell: target.shell, env });
  return { file: wrapped.file, args: wrapped.args };
}

function inheritedEnv(
  processEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const env = { ...processEnv };
  for (const name of PARENT_TERMINAL_VARIABLES) delete env[name];
  return env;
}
