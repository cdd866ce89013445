import { createDsrStripper, cursorPositionReport } from '@procmux/ansi';
import type { Disposer, ScreenLike } from '@procmux/core-types';

/**
 * Answers a PTY program's terminal queries, so programs that ask where the cursor is (shells,
 * readline, prompt libraries) do not hang waiting for a terminal that is not there.
 * Cursor-position requests (`ESC[6n`, `ESC[?6n`) are removed from the output, even when
 * split across chunks, and answered with the screen's cursor, or row 1, column 1 without a
 * screen. Whatever else the screen answers (device attributes, ...) is written back too.
 */
export class TerminalQueries {
  private readonly stripper = createDsrStripper();
  private readonly stopReplies: Disposer | undefined;
  // Answers go out in query order, each after the screen has parsed what preceded it.
  private answers: Promise<void> = Promise.resolve();
  private disposed = false;

  /**
   * @param screen where the cursor is read and replies come from
   * @param feed hands text to the screen (the caller guards against a screen that throws)
   * @param answer writes to the program's stdin
   * @param onError hears about an answer that could not be given
   */
  constructor(
    private readonly screen: ScreenLike | undefined,
    private readonly feed: (text: string) => void,
    private readonly answer: (reply: string) => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.stopReplies = screen?.onReply((reply) => this.write(reply));
  }

  /** The chunk without cursor-position requests; feeds the screen and answers each request. */
  filter(chunk: string): string {
    const { text, count } = this.stripper.push(chunk);
    if (text.length > 0) this.feed(text);
    for (let i = 0; i < count; i += 1) this.answerCursor();
    return text;
  }

  /** Text held back as a possible start of a request, released at the end of output. */
  flush(): string {
    const { text } = this.stripper.flush();
    if (text.length > 0) this.feed(text);
    return text;
  }

  /** Stops answering; replies still queued are dropped (the program has gone). */
  dispose(): void {
    this.disposed = true;
    this.stopReplies?.();
  }

  private answerCursor(): void {
    this.answers = this.answers.then(async () => this.write(cursorPositionReport(...(await this.cursor()))));
  }

  // The screen parses asynchronously: its cursor is right once it has caught up. A screen
  // that fails (its owner disposed it) still gets the program an answer, so it cannot hang.
  private async cursor(): Promise<[number, number]> {
    const screen = this.screen;
    if (screen === undefined) return [1, 1];
    try {
      await screen.flush?.();
      const { row, col } = screen.cursor;
      return [row, col];
    } catch (error) {
      this.onError(error);
      return [1, 1];
    }
  }

  private write(reply: string): void {
    if (this.disposed) return;
    try {
      this.answer(reply);
    } catch (error) {
      this.onError(error);
    }
  }
}
