/**
 * The last `maxBytes` UTF-8 bytes of a stream, for RunExit. The end of a run's output is
 * where errors and summaries are, so the oldest bytes go first; a cut never splits a
 * character (the partial character at the cut goes too, so the result may be a few bytes
 * under the cap).
 *
 * Appending does not measure bytes: every UTF-16 unit is at least one UTF-8 byte, so chunks
 * are dropped once the newer ones hold `maxBytes` units, and the exact cut waits until the
 * text is asked for (or the units held reach twice the cap, which bounds memory).
 */
export class CaptureBuffer {
  private chunks: string[] = [];
  private units = 0;
  private cut = false;

  constructor(private readonly maxBytes: number) {}

  /** True once anything was dropped. */
  get truncated(): boolean {
    if (!this.cut) this.trim();
    return this.cut;
  }

  append(chunk: string): void {
    if (chunk.length === 0) return;
    if (this.maxBytes === 0) {
      this.cut = true;
      return;
    }
    this.chunks.push(chunk);
    this.units += chunk.length;
    // The chunks after the head hold at least as many bytes as units: the head is all beyond.
    while (this.chunks.length > 1 && this.units - this.chunks[0]!.length >= this.maxBytes) {
      this.units -= this.chunks.shift()!.length;
      this.cut = true;
    }
    if (this.units > 2 * this.maxBytes) this.trim();
  }

  /** UTF-16 units held in memory now: what the bound above is about. */
  get heldUnits(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  text(): string {
    this.trim();
    return this.chunks.join('');
  }

  // Cuts to the exact byte cap: whole chunks first, then the front of the head chunk.
  private trim(): void {
    const sizes = this.chunks.map((chunk) => Buffer.byteLength(chunk, 'utf8'));
    let total = sizes.reduce((sum, size) => sum + size, 0);
    if (total <= this.maxBytes) return;
    this.cut = true;
    while (total - sizes[0]! >= this.maxBytes) {
      total -= sizes.shift()!;
      this.units -= this.chunks.shift()!.length;
    }
    const head = Buffer.from(this.chunks[0]!, 'utf8');
    let start = total - this.maxBytes;
    // Skip UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a character.
    while (start < head.length && (head[start]! & 0xc0) === 0x80) start += 1;
    const kept = head.subarray(start).toString('utf8');
    this.units -= this.chunks[0]!.length - kept.length;
    if (kept.length === 0) this.chunks.shift();
    else this.chunks[0] = kept;
  }
}
