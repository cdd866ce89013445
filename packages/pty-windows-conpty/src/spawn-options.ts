// Turns the caller's options into exactly what node-pty's ConPTY spawn gets.
import { win32 } from 'node:path';
import {
  DEFAULT_COLS,
  DEFAULT_ROWS,
  DEFAULT_TERM,
  describe,
  FORCE_KILL_SETTLE_MS,
  type KillReport,
  type KillTreeOptions,
  ProcmuxError,
  type PtySpawnOptions,
  resolveLimit,
  TERM_BYTES_LIMIT,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
  withTreeMarker,
} from '@procmux/core-types';
import { windowsPtySpec } from '@procmux/shell-wrap';
import type { ConptyModule } from './node-pty.js';

/** Options of the ConPTY adapter: the shared PtySpawnOptions plus this backend's knobs. */
export interface ConptyOptions extends PtySpawnOptions {
  /** The cmd executable for `command`; the environment's ComSpec, else cmd.exe. */
  comspec?: string;
  /** node-pty itself, already loaded (tests inject a fake); imported on first use otherwise. */
  nodePty?: ConptyModule;
  /** A force kill that brings no exit within this many ms settles as SIGKILL (default 4000). */
  forceKillSettleMs?: number;
  /** Effect: the tree kill behind kill('force'); @procmux/kill-windows by default. */
  killTree?: (pid: number, options: KillTreeOptions) => Promise<KillReport>;
  /** Effect: whether cwd is an existing directory; a stat by default (tests off Windows inject it). */
  isDirectory?: (path: string) => boolean;
}

/** What node-pty gets, fully resolved. */
export interface ResolvedConptySpawn {
  file: string;
  /** A string is the verbatim command-line tail (shell commands); an array is quoted by node-pty. */
  args: string | string[];
  /** Absolute. */
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  term: string;
}

const MAX_TIMER_MS = 60_000;

/**
 * Validates the options and resolves the command line, cwd, environment and size. Throws
 * ERR_INVALID_OPTION saying what is allowed. Paths are Windows paths whatever the host is.
 */
export function resolveConptySpawn(
  options: ConptyOptions,
  processEnv: Readonly<Record<string, string | undefined>> = process.env,
  processCwd: string = process.cwd(),
): ResolvedConptySpawn {
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
  const env = withTreeMarker(options.env === undefined ? processEnv : checkEnv(options.env));
  env.TERM = term;
  const { file, args } = resolveTarget(options, env);
  return { file, args, cwd, env, cols, rows, term };
}

/** The force-kill settle time, validated. */
export function resolveForceKillSettleMs(value: unknown): number {
  if (value === undefined) return FORCE_KILL_SETTLE_MS;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_TIMER_MS)
    return value;
  throw invalid(
    'forceKillSettleMs',
    `forceKillSettleMs must be an integer from 0 to ${MAX_TIMER_MS} (got ${describe(value)})`,
  );
}

function resolveTarget(
  options: ConptyOptions,
  env: Record<string, string>,
): { file: string; args: string | string[] } {
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
    // A string tail reaches the shell verbatim: node-pty would re-quote an array with
    // backslash escapes, which cmd does not understand.
    const spec = windowsPtySpec(command, { shell, comspec: options.comspec, env });
    return { file: spec.file, args: spec.commandLine };
  }
  if (shell !== undefined) throw invalid('shell', 'shell goes with command; file runs without a shell');
  if (options.comspec !== undefined)
    throw invalid('comspec', 'comspec goes with command; file runs without a shell');
  if (typeof file !== 'string' || file === '' || file.includes('\0')) {
    throw invalid('file', `file must be a non-empty string without NUL (got ${describe(file)})`);
  }
  if (args !== undefined && (!Array.isArray(args) || !args.every(isExecString))) {
    throw invalid('args', `args must be an array of strings without NUL (got ${describe(args)})`);
  }
  return { file, args: [...(args ?? [])] };
}

function resolveCwd(cwd: unknown, processCwd: string): string {
  if (cwd === undefined) return win32.resolve(processCwd);
  if (typeof cwd !== 'string' || cwd === '' || cwd.includes('\0')) {
    throw invalid('cwd', `cwd must be a non-empty path without NUL (got ${describe(cwd)})`);
  }
  return win32.resolve(processCwd, cwd);
}

function resolveTerm(term: unknown): string {
  if (term === undefined) return DEFAULT_TERM;
  if (typeof term === 'string' && /^[\x21-\x7e]+$/.test(term) && term.length <= TERM_BYTES_LIMIT.hard)
    return term;
  throw invalid(
    'term',
    `term must be 1 to ${TERM_BYTES_LIMIT.hard} printable ASCII characters without spaces, ` +
      `like 'xterm-256color' (got ${describe(term)})`,
  );
}

// Values are never shown: environments carry secrets. Windows keeps per-drive directories in
// names that start with '=' ('=C:'), so only a later '=' is refused.
function checkEnv(env: unknown): Readonly<Record<string, string | undefined>> {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw invalid('env', `env must be an object of strings (got ${describe(env)})`);
  }
  for (const [key, value] of Object.entries(env)) {
    if (key === '' || key.indexOf('=', 1) !== -1 || key.includes('\0')) {
      throw invalid(
        'env',
        `env names must be non-empty, without NUL or '=' after the first character (got ${describe(key)})`,
      );
    }
    if (value !== undefined && !isExecString(value)) {
      throw invalid('env', `env.${key} must be a string without NUL, or undefined to leave it out`);
    }
  }
  return env as Readonly<Record<string, string | undefined>>;
}

function isExecString(value: unknown): value is string {
  return typeof value === 'string' && !value.includes('\0');
}

function invalid(option: string, message: string): ProcmuxError {
  return new ProcmuxError('ERR_INVALID_OPTION', message, { details: { option } });
}
