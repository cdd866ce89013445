// The terminal screen contract; the implementation is @procmux/screen.
/** Where the cursor is, 1-based and relative to the visible screen: what `ESC[6n` reports. */
export interface ScreenCursor {
  /** 1 is the top row of the screen. */
  row: number;
  /** 1 is the leftmost column; never more than the number of columns. */
  col: number;
}

/** Terminal modes the program switched on, which key encoding and paste consult. */
export interface ScreenModes {
  /** `ESC[?2004h`: pastes should be wrapped in `ESC[200~ … ESC[201~`. */
  bracketedPaste: boolean;
  /** `ESC[?1h` (DECCKM): arrow keys are sent as `ESC O A` rather than `ESC [ A`. */
  applicationCursorKeys: boolean;
  /** The program is on the alternate screen (a full-screen program: vim, less, top). */
  alternateScreen: boolean;
}

/**
 * The surface of a terminal screen that sessions and the supervisor use. `TerminalScreen` of
 * `@procmux/screen` implements it; a test double can too. It lives here, in the contract package,
 * so a package that only passes a screen along does not install the terminal emulator.
 */
export interface ScreenLike {
  /** Hands output of the program to the screen. Synchronous; nothing fed is ever dropped. */
  feed(chunk: string): void;
  /** Scrollback and screen as text, after every byte fed before the call has been parsed. */
  renderFull(): Promise<string>;
  /** What is new since the previous `renderNew()`, as a continuation of the text it returned. */
  renderNew(): Promise<string>;
  /** Changes the size; the screen reflows as a terminal would. */
  resize(cols: number, rows: number): void;
  /** The cursor, as parsed so far. */
  readonly cursor: ScreenCursor;
  /**
   * The logical line the cursor is on, as parsed so far: blanks past its last character left
   * out but those before the cursor kept (a prompt's trailing space); '' on an empty row.
   */
  cursorLine?(): string;
  /**
   * The cursor's logical line up to the cursor, as parsed so far: what a prompt shows. '' when
   * nothing precedes the cursor or it rests past a row written to the last column.
   */
  cursorPrompt?(): string;
  /** The modes, as parsed so far. */
  readonly modes: ScreenModes;
  /** Calls `cb` with each answer the terminal gives to a query (cursor position, device attributes). */
  onReply(cb: (data: string) => void): () => void;
  /** Resolves once every byte fed so far has been parsed, so `cursor` and `modes` reflect it. */
  flush?(): Promise<void>;
  /** Frees the terminal. Later calls throw ERR_PROCESS_STATE. */
  dispose(): void;
}
