import { TerminalScreen } from '@procmux/screen';

/** Rows above the screen each pooled emulator keeps (see FullScreenEpisode: repaint episodes). */
export const POOL_SCROLLBACK = 1_000;
/** Full reset (RIS): buffers, scrollback, modes and cursor as new. */
const RESET = '\x1bc';

/**
 * One spare emulator per transcript, reset and reused by the next episode: making an xterm.js
 * terminal costs milliseconds, and a program that enters and leaves the alternate screen
 * often would otherwise pay that each time.
 */
export class ScreenPool {
  #spare: TerminalScreen | undefined;
  #closed = false;

  /** An emulator of this size, reset; throws ERR_INVALID_OPTION for a size it cannot take. */
  take(columns: number, rows: number): TerminalScreen {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare) {
      const size = spare.size;
      if (size.cols !== columns || size.rows !== rows) spare.resize(columns, rows);
      return spare;
    }
    return new TerminalScreen({ cols: columns, rows, scrollback: POOL_SCROLLBACK });
  }

  /** Hands an emulator back once its render is read: kept (reset) as the spare, or freed. */
  give(screen: TerminalScreen): void {
    if (this.#spare || this.#closed) {
      screen.dispose();
      return;
    }
    screen.feed(RESET);
    this.#spare = screen;
  }

  /** Frees the spare, and every emulator handed back from now on (the session ended). */
  close(): void {
    this.#closed = true;
    this.#spare?.dispose();
    this.#spare = undefined;
  }
}
