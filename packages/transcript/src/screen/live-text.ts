import { type AnsiStripper, createAnsiStripper } from '@procmux/ansi';

/**
 * ANSI-stripped text of one pipe stream as a poller should see it. The stripper holds the
 * unfinished line back (a later `\r` may rewrite it), but a prompt without a newline must
 * still reach a model, so each read also shows that line: only its new characters when it
 * has just grown, the whole line on a line of its own when it was rewritten — the same rule
 * the screen's renderNew follows.
 */
export class LiveText {
  readonly #stripper: AnsiStripper = createAnsiStripper();
  /** The unfinished line as last shown. */
  #shown = '';
  /** The line the text read so far ends on: its characters after the last line break. */
  #open = '';

  /** The line the text read so far stands on, whole (its start may have come in earlier reads). */
  get openLine(): string {
    return this.#open;
  }

  /** Feeds a drained chunk; returns what the poller has not seen yet. */
  read(chunk: string, ended: boolean): string {
    let final = this.#stripper.push(chunk);
    if (ended) final += this.#stripper.flush();
    let out = '';
    if (final !== '') {
      out = this.#continue(final);
      this.#shown = '';
      this.#open = final.slice(final.lastIndexOf('\n') + 1);
    }
    const pending = ended ? '' : this.#stripper.pending;
    if (pending !== '') {
      out += this.#continue(pending);
      this.#shown = pending;
      this.#open = pending;
    }
    return out;
  }

  #continue(text: string): string {
    if (this.#shown === '') return text;
    if (text.startsWith(this.#shown)) return text.slice(this.#shown.length);
    return `\n${text}`;
  }
}
