/** Options of a {@link TerminalScreen}. Every value is an integer; nothing is clamped. */
export interface TerminalScreenOptions {
  /** Columns, 2 to 500 (default 120). */
  cols?: number;
  /** Rows, 1 to 200 (default 30). */
  rows?: number;
  /** Lines kept above the screen, 1 to 100,000 (default 5,000). */
  scrollback?: number;
}
