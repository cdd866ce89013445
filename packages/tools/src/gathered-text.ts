// One stream's text gathered within a tool call, kept as the pieces the polls brought. A flood
// read by one wait_for is thousands of polls past the call's cap: as one string, each poll's
// trim and search copied the whole kept megabyte (V8 flattens a joined string to slice it);
// as pieces, a poll costs what it brought, and the whole text is joined once, when asked for.

/** A piece shorter than this takes the next one in (so a megabyte is a few hundred pieces). */
const MIN_PIECE_CHARS = 4_096;

export class GatheredText {
  #pieces: string[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  append(chunk: string): void {
    if (chunk === '') return;
    const last = this.#pieces.length - 1;
    if (last >= 0 && this.#pieces[last]!.length < MIN_PIECE_CHARS) this.#pieces[last] += chunk;
    else this.#pieces.push(chunk);
    this.#length += chunk.length;
  }

  /** The character code at `index`. */
  charCodeAt(index: number): number {
    let at = index;
    for (const piece of this.#pieces) {
      if (at < piece.length) return piece.charCodeAt(at);
      at -= piece.length;
    }
    return Number.NaN;
  }

  /** Drops the first `count` characters and returns them. */
  dropFront(count: number): string {
    let dropped = '';
    let left = Math.min(count, this.#length);
    this.#length -= left;
    while (left > 0) {
      const first = this.#pieces[0]!;
      if (first.length <= left) {
        dropped += first;
        left -= first.length;
        this.#pieces.shift();
      } else {
        dropped += first.slice(0, left);
        this.#pieces[0] = first.slice(left);
        left = 0;
      }
    }
    return dropped;
  }

  /** Keeps the first `length` characters. */
  truncate(length: number): void {
    while (this.#length > length) {
      const last = this.#pieces.at(-1)!;
      const excess = this.#length - length;
      if (last.length <= excess) {
        this.#pieces.pop();
        this.#length -= last.length;
      } else {
        this.#pieces[this.#pieces.length - 1] = last.slice(0, last.length - excess);
        this.#length = length;
      }
    }
  }

  /** The text from `start` to the end; only the pieces it spans are joined. */
  from(start: number): string {
    if (start <= 0) return this.toString();
    let index = this.#pieces.length;
    let at = this.#length;
    while (index > 0 && at > start) {
      index -= 1;
      at -= this.#pieces[index]!.length;
    }
    const tail = this.#pieces.slice(index).join('');
    return tail.slice(start - at);
  }

  /** The first `count` characters. */
  head(count: number): string {
    let text = '';
    for (const piece of this.#pieces) {
      if (text.length >= count) break;
      text += piece;
    }
    return text.slice(0, count);
  }

  endsWith(suffix: string): boolean {
    return suffix.length <= this.#length && this.from(this.#length - suffix.length) === suffix;
  }

  /** The last index of `char` before `end` (exclusive), or -1. */
  lastIndexOf(char: string, end: number): number {
    let at = this.#length;
    for (let index = this.#pieces.length - 1; index >= 0; index--) {
      const piece = this.#pieces[index]!;
      at -= piece.length;
      if (at >= end) continue;
      const found = piece.lastIndexOf(char, end - at - 1);
      if (found !== -1) return at + found;
    }
    return -1;
  }

  /** The whole text; the pieces become one. */
  toString(): string {
    if (this.#pieces.length > 1) this.#pieces = [this.#pieces.join('')];
    return this.#pieces[0] ?? '';
  }
}
