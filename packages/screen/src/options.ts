import {
  DEFAULT_COLS,
  DEFAULT_ROWS,
  DEFAULT_SCROLLBACK,
  invalidOption,
  type Limit,
  optionsObject,
  resolveLimit,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
} from '@procmux/core-types';
import type { TerminalScreenOptions } from './types.js';

// xterm.js silently widens a terminal narrower than 2 columns (a wide character needs two), so a
// 1-column screen is refused rather than quietly made wider.
const MIN_COLS = 2;
const COLS: Limit = { default: DEFAULT_COLS, hard: TERMINAL_COLUMNS_LIMIT.hard };
const ROWS: Limit = { default: DEFAULT_ROWS, hard: TERMINAL_ROWS_LIMIT.hard };
// Each retained row costs about 12 bytes a column; 100,000 rows of 500 columns is the most a
// screen may hold (~600 MB), well above any sensible setting.
const SCROLLBACK: Limit = { default: DEFAULT_SCROLLBACK, hard: 100_000 };

export interface ScreenSize {
  cols: number;
  rows: number;
}

/** Validates a size; ERR_INVALID_OPTION names the value and what is allowed. */
export function resolveSize(cols: unknown, rows: unknown): ScreenSize {
  return { cols: resolveLimit('cols', cols, COLS, MIN_COLS), rows: resolveLimit('rows', rows, ROWS) };
}

/** Applies defaults and validates every option of a TerminalScreen. */
export function resolveScreenOptions(options: unknown): Required<TerminalScreenOptions> {
  if (options === null) throw invalidOption('options', 'an object', { value: options });
  const { cols, rows, scrollback } = optionsObject<TerminalScreenOptions>(options);
  return { ...resolveSize(cols, rows), scrollback: resolveLimit('scrollback', scrollback, SCROLLBACK) };
}
