// The spawn options both PTY adapters read the same way (the target itself is core-types'
// checkSpawnTarget, shared with the supervisor). Each adapter adds only what its
// platform decides: how a command is wrapped in a shell, how cwd resolves, which env names exist.
import {
  DEFAULT_COLS,
  DEFAULT_ROWS,
  DEFAULT_TERM,
  envOption,
  invalidOption,
  optionsObject,
  type PtySpawnOptions,
  resolveLimit,
  TERM_BYTES_LIMIT,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
} from '@procmux/core-types';

/** The options argument, which must be an object. */
export function checkPtyOptions<T extends PtySpawnOptions>(options: unknown): T {
  if (options === undefined || options === null)
    throw invalidOption('options', 'an object', { value: options });
  return optionsObject<T>(options) as T;
}

/** cols and rows of a new terminal: 120 x 30 by default, up to the terminal limits. */
export function resolvePtySize(options: PtySpawnOptions): { cols: number; rows: number } {
  return {
    cols: resolveLimit('cols', options.cols, { default: DEFAULT_COLS, hard: TERMINAL_COLUMNS_LIMIT.hard }),
    rows: resolveLimit('rows', options.rows, { default: DEFAULT_ROWS, hard: TERMINAL_ROWS_LIMIT.hard }),
  };
}

/** TERM: printable ASCII without spaces, up to the limit; xterm-256color by default. */
export function resolvePtyTerm(term: unknown): string {
  if (term === undefined) return DEFAULT_TERM;
  if (typeof term === 'string' && /^[\x21-\x7e]+$/.test(term) && term.length <= TERM_BYTES_LIMIT.hard)
    return term;
  throw invalidOption(
    'term',
    `1 to ${TERM_BYTES_LIMIT.hard} printable ASCII characters without spaces, like 'xterm-256color'`,
    { value: term, max: TERM_BYTES_LIMIT.hard },
  );
}

/** cwd as given (the adapter resolves it with its platform's path rules); undefined stays undefined. */
export function checkPtyCwd(cwd: unknown): string | undefined {
  if (cwd === undefined) return undefined;
  if (typeof cwd === 'string' && cwd !== '' && !cwd.includes('\0')) return cwd;
  throw invalidOption('cwd', 'a non-empty path without NUL characters', { value: cwd });
}

/** The child's environment as given; see envOption (windows: names may start with '='). */
export function checkPtyEnv(env: unknown, windows: boolean): Readonly<Record<string, string | undefined>> {
  return envOption(env, 'env', { windowsNames: windows }) ?? {};
}
