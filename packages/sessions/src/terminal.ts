import { DEFAULT_TERM, ProcmuxError } from '@procmux/core-types';
import { integerOption } from './checks.js';
import type { ResolvedProcessSessionLimits } from './limits.js';

/** A PTY session's terminal: 120×40 `xterm-256color` unless asked otherwise. */
export interface TerminalRequest {
  columns?: number;
  rows?: number;
  term?: string;
}

export interface ResolvedTerminal {
  columns: number;
  rows: number;
  term: string;
}

export const DEFAULT_SESSION_COLUMNS = 120;
export const DEFAULT_SESSION_ROWS = 40;

/** Checks a terminal request against the registry's caps; out of range is an error, not a clamp. */
export function resolveTerminal(
  request: TerminalRequest | undefined,
  limits: ResolvedProcessSessionLimits,
): ResolvedTerminal {
  const t = request ?? {};
  if (typeof t !== 'object' || t === null) {
    throw new ProcmuxError('ERR_INVALID_OPTION', 'terminal must be an object { columns, rows, term }');
  }
  const columns = integerOption(
    'terminal.columns',
    t.columns,
    DEFAULT_SESSION_COLUMNS,
    1,
    limits.maxTerminalColumns,
  );
  const rows = integerOption('terminal.rows', t.rows, DEFAULT_SESSION_ROWS, 1, limits.maxTerminalRows);
  const term = t.term ?? DEFAULT_TERM;
  if (
    typeof term !== 'string' ||
    term === '' ||
    Buffer.byteLength(term) > limits.maxTermBytes ||
    /[\0\s]/.test(term)
  ) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `terminal.term must be a non-empty name without whitespace of at most ${limits.maxTermBytes} bytes`,
    );
  }
  return { columns, rows, term };
}
