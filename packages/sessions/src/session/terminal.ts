import { DEFAULT_TERM, integerOption, invalidOption } from '@procmux/core-types';
import type { ResolvedProcessSessionLimits } from '@procmux/registry';

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
    throw invalidOption('terminal', 'an object { columns, rows, term }', { value: t });
  }
  const columns = integerOption('terminal.columns', t.columns ?? undefined, {
    min: 1,
    max: limits.maxTerminalColumns,
    default: DEFAULT_SESSION_COLUMNS,
  });
  const rows = integerOption('terminal.rows', t.rows ?? undefined, {
    min: 1,
    max: limits.maxTerminalRows,
    default: DEFAULT_SESSION_ROWS,
  });
  const term = t.term ?? DEFAULT_TERM;
  if (
    typeof term !== 'string' ||
    term === '' ||
    Buffer.byteLength(term) > limits.maxTermBytes ||
    /[\0\s]/.test(term)
  ) {
    throw invalidOption(
      'terminal.term',
      `a non-empty name without whitespace of at most ${limits.maxTermBytes} bytes`,
      { value: term, max: limits.maxTermBytes },
    );
  }
  return { columns, rows, term };
}
