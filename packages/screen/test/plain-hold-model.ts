// The hold as it was written first, on the chunk strings: the model the byte store must match
// (which text it holds, which it drops, and when).
export class StringHold {
  #chunks: string[] = [];
  #lines = 0;
  #nextTry = 0;

  constructor(private readonly options: { keepLines: () => number; canDrop: () => boolean }) {}

  hold(chunk: string): boolean {
    if (/[^\t\n\r\x20-\x7e]/.test(chunk)) return false;
    this.#chunks.push(chunk);
    this.#lines += feedsOf(chunk);
    const keep = this.options.keepLines();
    if (this.#lines >= 2 * keep && this.#lines >= this.#nextTry) {
      const cut = this.options.canDrop() ? this.#cut(keep) : undefined;
      if (cut === undefined || cut === 0) this.#nextTry = this.#lines + keep;
      else {
        const text = this.#chunks.join('');
        this.#chunks = [text.slice(cut)];
        this.#lines = feedsOf(this.#chunks[0]!);
        this.#nextTry = 0;
      }
    }
    return true;
  }

  coveringTail(keep: number): string | undefined {
    if (this.#lines < keep || !this.options.canDrop()) return undefined;
    const cut = this.#cut(keep);
    return cut === undefined ? undefined : this.#chunks.join('').slice(cut);
  }

  take(): string {
    const text = this.#chunks.join('');
    this.#chunks = [];
    this.#lines = 0;
    this.#nextTry = 0;
    return text;
  }

  // The last CR with at least `keep` line feeds after it.
  #cut(keep: number): number | undefined {
    const text = this.#chunks.join('');
    let at = text.length;
    for (let seen = 0; seen < keep; seen++) at = text.lastIndexOf('\n', at - 1);
    const cr = at <= 0 ? -1 : text.lastIndexOf('\r', at - 1);
    return cr === -1 ? undefined : cr;
  }
}

function feedsOf(text: string): number {
  return text.split('\n').length - 1;
}
