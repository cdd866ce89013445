/** Options of a {@link TerminalScreen}. Every value is an integer; nothing is clamped. */
export interface TerminalScreenOptions {
  /** Columns, 2 to 500 (default 120). */
  cols?: number;
  /** Rows, 1 to 200 (default 30). */
  rows?: number;
  /** Lines kept above the screen, 1 to 100,000 (default 5,000). */
  scrollback?: number;
}

/** What `renderChanges()` returns: renderNew()'s text, and how much of the text before it it redraws. */
export interface ScreenChanges {
  /** What renderNew() returns. */
  text: string;
  /**
   * How many lines at the end of the text earlier renders returned the first lines of `text`
   * draw again in place; 0 when `text` only continues that text.
   */
  redrawn: number;
}
