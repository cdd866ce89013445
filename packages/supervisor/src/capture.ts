/**
 * The last `maxBytes` UTF-8 bytes of a stream, for RunExit. The end of a run's output is
 * where errors and summaries are, so the oldest bytes go first; a cut never splits a
 * character (the partial character at the cut goes too, so the result may be a few bytes
 * under the cap).
 */
export class CaptureBuffer {
  private chunks: string[] = [];
  private bytes: number[] = [];
  private total = 0;
  private cut = false;

  constructor(private readonly maxBytes: number) {}

  /** True once anything was dropped. */
  get truncated(): boolean {
    return this.cut;
  }

  append(chunk: string): void {
    const size = Buffer.byteLength(chunk, 'utf8');
    if (size === 0) return;
    this.chunks.push(chunk);
    this.bytes.push(size);
    this.total += size;
    if (this.total > this.maxBytes) this.trim();
  }

  text(): string {
    return this.chunks.join('');
  }

  private trim(): void {
    this.cut = true;
    let drop = 0;
    while (drop < this.chunks.length && this.total - this.bytes[drop]! >= this.maxBytes) {
      this.total -= this.bytes[drop]!;
      drop += 1;
    }
    this.chunks.splice(0, drop);
    this.bytes.splice(0, drop);
    const excess = this.total - this.maxBytes;
    if (excess <= 0 || this.chunks.length === 0) return;
    const head = Buffer.from(this.chunks[0]!, 'utf8');
    let start = excess;
    // Skip UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a character.
    while (start < head.length && (head[start]! & 0xc0) === 0x80) start += 1;
    const kept = head.subarray(start).toString('utf8');
    this.total -= start;
    if (kept.length === 0) {
      this.chunks.shift();
      this.bytes.shift();
      return;
    }
    this.chunks[0] = kept;
    this.bytes[0] = head.length - start;
  }
}
