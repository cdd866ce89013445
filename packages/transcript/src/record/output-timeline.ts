// When each piece of output arrived, so a recording replays at the speed it happened.
// Bounded like the output log it indexes: a mark whose bytes the log discarded goes too.

/** Chunks arriving within this many ms of the previous mark share it (a flood stays small). */
const COALESCE_MS = 1;
/** At most this many marks; past it the oldest go (the recording then starts later). */
export const MAX_TIMELINE_MARKS = 1_000_000;
/** At most this many resizes are remembered (they are rate-limited per minute anyway). */
const MAX_RESIZES = 10_000;

export interface TimelineResize {
  /** Epoch ms. */
  at: number;
  columns: number;
  rows: number;
}

/**
 * Byte offsets into an OutputLog paired with arrival times, plus the terminal's resizes.
 * Input is never marked: recordings hold output only.
 */
export class OutputTimeline {
  #offsets: number[] = [];
  #times: number[] = [];
  #head = 0;
  #resizes: TimelineResize[] = [];

  constructor(readonly maxMarks = MAX_TIMELINE_MARKS) {}

  /** Output starting at byte `offset` of the log arrived at `at` (epoch ms). */
  mark(offset: number, at: number): void {
    const last = this.#times.length - 1;
    if (last >= this.#head && at - this.#times[last]! < COALESCE_MS) return;
    this.#offsets.push(offset);
    this.#times.push(at);
    if (this.#times.length - this.#head > this.maxMarks) this.#head += 1;
    this.#compact();
  }

  resized(at: number, columns: number, rows: number): void {
    this.#resizes.push({ at, columns, rows });
    if (this.#resizes.length > MAX_RESIZES) this.#resizes.shift();
  }

  /** Forgets marks wholly before `firstRetained` (the log discarded their bytes). */
  prune(firstRetained: number): void {
    while (this.#head + 1 < this.#offsets.length && this.#offsets[this.#head + 1]! <= firstRetained) {
      this.#head += 1;
    }
    this.#compact();
  }

  /** Marks oldest first, as [offset, at] pairs. */
  marks(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = this.#head; i < this.#offsets.length; i++) out.push([this.#offsets[i]!, this.#times[i]!]);
    return out;
  }

  get resizes(): readonly TimelineResize[] {
    return this.#resizes;
  }

  #compact(): void {
    if (this.#head > 4096 && this.#head * 2 > this.#offsets.length) {
      this.#offsets = this.#offsets.slice(this.#head);
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }
}
