/** A page of a session's transcript: whole lines, counted from the first line ever printed. */
export interface LogResult {
  text: string;
  /** Index of the first returned line. */
  offset: number;
  /** Lines returned. */
  lines: number;
  totalLines: number;
  /** True when lines before or after the returned range exist. */
  cut: boolean;
  /**
   * Lines before the first one the retained history still holds whole (the history cap,
   * maxOutputBytes, dropped them): offsets below it return from it. 0 when nothing was dropped.
   */
  droppedLines: number;
  /** Bytes of output before that line: the history cap's drop, to the next line start. */
  droppedBytes: number;
}
