import { createAnsiStripper } from '@procmux/ansi';
import { plainLineFeeds } from '@procmux/screen';
import { holdsErrorWordLetter } from '../excerpt/error-lines.js';
import type { OutputLog } from '../log/output-log.js';
import { EpisodeTracker, type TranscriptStep } from '../screen/episode-tracker.js';
import type { Foreground } from '../screen/full-screen-episode.js';
import { lineStartAfter, linesBetween } from './line-start.js';
import type { LogResult } from './log-result.js';
import { logWindow, transcriptChunks } from './transcript.js';
import { type Checkpoint, walkTranscript } from './transcript-walk.js';

/** Bytes of history between two checkpoints at least: a page reads at most about this much more. */
const CHECKPOINT_BYTES = 16 * 1024;
/** A chunk's text after its last line feed longer than this may have wrapped: no checkpoint. */
const MAX_TAIL_CHARS = 1_024;
/** A log read while a full-screen program keeps redrawing settles on the screen after this many tries. */
const MAX_LIVE_TRIES = 3;

export interface TranscriptIndexOptions {
  /** A terminal session's size: full-screen programs are rendered. Pipes leave it out. */
  terminal?: { columns: number; rows: number } | undefined;
  /** The terminal's foreground job now (its marker name; a repaint episode ends when it changes). */
  foreground?: (named: boolean) => Foreground | undefined;
}

/**
 * Counts the transcript's lines as output arrives (the same streaming ANSI stripper log()
 * pages with) and remembers, every CHECKPOINT_BYTES or so, the byte offset where a line
 * starts. A page then strips from the nearest checkpoint at or before its first line, so it
 * costs O(page), not O(history): 64 MiB was re-stripped on every call before.
 *
 * On a terminal, a program's stay on the alternate screen (vim, less, top) is not stripped:
 * its last screen, rendered by an emulator of its own, stands in for those bytes (see
 * FullScreenEpisode). Rendering is asynchronous, so the lines after an episode are counted
 * once its render is done; log() waits for that (a screen's render, milliseconds).
 */
export class TranscriptIndex {
  #stripper = createAnsiStripper();
  #lines = 0;
  /** Text the stripper already gave out after the last line feed: a row longer than its
   * width wraps softly, so an unfinished line is not always held in `pending`. */
  #openLine = false;
  #checkpoints: Checkpoint[] = [{ offset: 0, line: 0 }];
  readonly #tracker: EpisodeTracker;
  /** Steps not yet counted, because an episode before them is still being rendered. */
  #queue: TranscriptStep[] = [];
  #waiting: Promise<void> | undefined;
  #changes = 0;
  /** Retained bytes [from, to) known to hold no line feed: a line start is not sought there again. */
  #noLineFeed = { from: 0, to: 0 };
  /** A byte counted since the last checkpoint may not be plain (see Checkpoint.plainBefore). */
  #unplain = false;
  /** A byte counted since the last checkpoint may be a letter of an error word (see Checkpoint.wordFreeBefore). */
  #worded = false;

  constructor(options: TranscriptIndexOptions = {}) {
    this.#tracker = new EpisodeTracker(options.terminal, options.foreground, (step) => this.#step(step));
  }

  /**
   * Call with each chunk as it is appended, and the log's byte count before the append; and
   * the chunk's size in bytes where the log measured it (the log knows it already; measuring
   * it again took a fifth of a pipe flood's CPU time). A pipe's chunk is counted at once.
   */
  add(chunk: string, offsetBefore: number, byteLength?: number): void {
    this.#changes += 1;
    if (!this.#tracker.terminal && this.#waiting === undefined && this.#queue.length === 0) {
      this.#addText(chunk, offsetBefore, byteLength === chunk.length);
      return;
    }
    this.#tracker.add(chunk, offsetBefore);
  }

  /** The terminal was resized: an episode on screen now redraws at the new size. */
  resize(columns: number, rows: number): void {
    this.#tracker.resize(columns, rows);
  }

  /** A PTY start that ran on pipes: nothing is rendered (call before any output). */
  plain(): void {
    this.#tracker.plain();
  }

  /** The session ended at log offset `totalBytes`: a program still on screen is rendered as it was. */
  end(totalBytes: number): void {
    this.#tracker.end(totalBytes);
  }

  /** Lines in the whole transcript counted so far, the unfinished last one included. */
  get totalLines(): number {
    return this.#lines + (this.#openLine || this.#stripper.pending !== '' ? 1 : 0);
  }

  /**
   * A window of the transcript's lines, numbered from the first line ever written (so an
   * offset stays valid as the caps drop old output). Without offset the last `limit` lines.
   * Lines the caps dropped are counted in `droppedLines`/`droppedBytes`, never returned.
   */
  async page(
    log: OutputLog,
    options: { offset?: number; limit?: number },
    pageBytes: number,
  ): Promise<LogResult> {
    const { limit: count, offset: asked } = logWindow(options);
    const live = await this.#settle();
    // From here to the end nothing awaits: the index and the log hold still.
    const total = this.totalLines + (live?.length ?? 0);
    const first = this.#firstPageable(log);
    const start = Math.max(first.line, asked ?? Math.max(0, total - count));
    const end = Math.min(total, start + count);
    const kept: string[] = [];
    if (start < end) {
      const from = this.#checkpointFor(start, first);
      let line = from.line;
      let current = '';
      const take = (text: string): boolean => {
        let at = 0;
        for (;;) {
          const newline = text.indexOf('\n', at);
          if (newline === -1) {
            if (line >= start) current += text.slice(at);
            return false;
          }
          if (line >= start) kept.push(current + text.slice(at, newline));
          current = '';
          line += 1;
          if (line >= end) return true;
          at = newline + 1;
        }
      };
      let done = false;
      for (const text of walkTranscript(log, from, this.#walkOptions(live, pageBytes))) {
        if (take(text)) {
          done = true;
          break;
        }
      }
      if (!done && line < end && current !== '') kept.push(current);
    }
    return {
      text: kept.join('\n'),
      offset: Math.min(start, total),
      lines: kept.length,
      totalLines: total,
      cut: start > 0 || start + kept.length < total,
      droppedLines: first.line,
      droppedBytes: first.offset,
    };
  }

  /** The whole pageable transcript as text chunks in order (what log() pages), never held whole. */
  async *chunks(log: OutputLog, pageBytes: number): AsyncGenerator<string> {
    const live = await this.#settle();
    // A pipe's transcript is the plain stripped history, from its first retained byte.
    if (!this.#tracker.terminal) yield* transcriptChunks(log, undefined, pageBytes);
    else yield* walkTranscript(log, this.#firstPageable(log), this.#walkOptions(live, pageBytes));
  }

  /**
   * Where lines of the retained transcript start (the first one whole, then about every
   * 16 KiB), each with its line number: a fresh stripper from any of them reads as this index
   * counted, so a reader may strip only the parts it shows and count the lines between from
   * here. Undefined for a terminal's transcript (its episodes render, see chunks()).
   */
  async lineStarts(log: OutputLog): Promise<readonly Checkpoint[] | undefined> {
    await this.#settle();
    if (this.#tracker.terminal) return undefined;
    const first = this.#firstPageable(log);
    const later = this.#checkpoints.filter((cp) => cp.offset > first.offset);
    return [first, ...later];
  }

  /** Whether a program's stay on the alternate screen was ever rendered into this transcript. */
  get rendersFullScreen(): boolean {
    return this.#tracker.episodes.length > 0;
  }

  #walkOptions(live: string[] | undefined, pageBytes: number) {
    return { episodes: this.#tracker.episodes, live, pageBytes };
  }

  #step(step: TranscriptStep): void {
    // The common case (nothing waits on a render): counted at once, no queue.
    if (this.#waiting === undefined && this.#queue.length === 0 && step.kind === 'text') {
      this.#addText(step.text, step.offset);
      return;
    }
    this.#queue.push(step);
    if (this.#waiting === undefined) this.#count();
  }

  /** Counts queued steps up to the first episode whose render is not done yet. */
  #count(): void {
    let done = 0;
    for (; done < this.#queue.length; done++) {
      const step = this.#queue[done]!;
      if (step.kind === 'text') {
        this.#addText(step.text, step.offset);
      } else if (step.kind === 'enter') {
        // The episode starts a line of its own: an unfinished line before it ends here.
        if (this.#stripper.flush() !== '' || this.#openLine) this.#lines += 1;
        this.#openLine = false;
        step.episode.line = this.#lines;
      } else if (step.episode.lines === undefined) {
        const rendered = step.episode.rendered!;
        this.#waiting = rendered.then(() => {
          this.#waiting = undefined;
          this.#count();
        });
        break;
      } else {
        this.#lines += step.episode.lines.length;
        // The stripper starts afresh after an episode, as a page read from here does.
        this.#checkpoints.push({ offset: step.episode.end!, line: this.#lines });
      }
    }
    this.#queue = done === this.#queue.length ? [] : this.#queue.slice(done);
  }

  /**
   * Waits until every episode that ended is rendered and counted; returns the block of the
   * one still on screen (rendered now), if any.
   */
  async #settle(): Promise<string[] | undefined> {
    for (let tries = 0; ; ) {
      if (this.#waiting) {
        await this.#waiting;
        continue;
      }
      const active = this.#tracker.active;
      if (!active) return undefined;
      const changes = this.#changes;
      const live = await active.live();
      tries += 1;
      if (this.#waiting || this.#tracker.active !== active) continue;
      if (changes === this.#changes || tries >= MAX_LIVE_TRIES) return live;
    }
  }

  /** `ascii`: the chunk is known to be ASCII (false: not known). */
  #addText(chunk: string, offsetBefore: number, ascii = false): void {
    const last = this.#checkpoints[this.#checkpoints.length - 1]!;
    const newline =
      offsetBefore + chunk.length * 3 - last.offset < CHECKPOINT_BYTES ? -1 : chunk.lastIndexOf('\n');
    // The rest of the chunk must be plain text on the line after: no escape sequence that a
    // fresh stripper would read differently, no row long enough to have wrapped.
    if (
      newline === -1 ||
      chunk.length - newline - 1 > MAX_TAIL_CHARS ||
      chunk.indexOf('\x1b', newline) !== -1
    ) {
      this.#countLines(chunk, ascii);
      return;
    }
    // Counted in two parts, to see the stripper's state at that line feed: only at ground did
    // it end a line (inside an OSC string, say, it is part of the string and no line starts).
    const head = newline + 1 === chunk.length ? chunk : chunk.slice(0, newline + 1);
    const headAscii = this.#countLines(head, ascii);
    const line = this.#lines;
    const grounded = this.#stripper.atGround;
    const unplainBefore = this.#unplain;
    const wordedBefore = this.#worded;
    this.#unplain = false;
    this.#worded = false;
    if (head !== chunk) this.#countLines(chunk.slice(newline + 1), ascii);
    const offset = grounded
      ? offsetBefore + (ascii || headAscii ? head.length : Buffer.byteLength(head))
      : undefined;
    if (offset === undefined || offset - last.offset < CHECKPOINT_BYTES) {
      // No checkpoint here: the bytes before it stay with those after.
      this.#unplain ||= unplainBefore;
      this.#worded ||= wordedBefore;
      return;
    }
    this.#checkpoints.push({
      offset,
      line,
      plainBefore: !unplainBefore,
      wordFreeBefore: !unplainBefore && !wordedBefore,
    });
  }

  /**
   * Counts the lines a chunk adds to the stripped transcript; returns whether it was ASCII.
   * Nobody reads the stripped text here, so a plain ASCII chunk (no ESC, hence no sequence
   * that could hide a line feed, and no C1 control) met at ground needs only its line feeds
   * counted: only the text after the last one goes through the stripper, which holds it as
   * the open row. A flood's chunks all take this path (stripping them was 580 of 1,620 ms
   * sampled under a pipe flood, issue 31).
   */
  #countLines(chunk: string, ascii: boolean): boolean {
    const stripper = this.#stripper;
    const lastNewline = chunk.lastIndexOf('\n');
    // The screen asked the same of this chunk just before (a PTY's), and had the answer kept.
    const scanned = stripper.atGround ? plainLineFeeds(chunk) : -1;
    // Plain for the stripper too: no carriage return (a memchr, ~2 ms per 200 MB).
    if (scanned < 0 || chunk.indexOf('\r') !== -1) this.#unplain = true;
    // Looked for only while the stretch could still be word-free: text finds a letter at once,
    // a flood of digits or of one letter costs 6 native searches (~3 ms per 50 MB).
    else if (!this.#worded && holdsErrorWordLetter(chunk)) this.#worded = true;
    const feeds = lastNewline === -1 ? -1 : scanned;
    const plain =
      feeds >= 0 ||
      (lastNewline !== -1 &&
        stripper.atGround &&
        chunk.indexOf('\x1b') === -1 &&
        (ascii || Buffer.byteLength(chunk) === chunk.length));
    if (plain) {
      // The first line feed ends the row held before this chunk, whatever it held.
      stripper.push('\n');
      if (feeds >= 0) this.#lines += feeds;
      else for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) this.#lines += 1;
      this.#openLine = lastNewline + 1 < chunk.length && stripper.push(chunk.slice(lastNewline + 1)) !== '';
      return true;
    }
    const out = stripper.push(chunk);
    let lastOut = -1;
    for (let at = out.indexOf('\n'); at !== -1; at = out.indexOf('\n', at + 1)) {
      this.#lines += 1;
      lastOut = at;
    }
    if (out.length > lastOut + 1) this.#openLine = true;
    else if (lastOut !== -1) this.#openLine = false;
    return false;
  }

  /**
   * The first line the retained history still holds whole, and where it starts. An episode
   * whose bytes the cap is dropping still has its block: it stays pageable until its end goes.
   */
  #firstPageable(log: OutputLog): Checkpoint {
    const floor = log.firstRetainedOffset;
    // Checkpoints below the retained history are of no more use (the last stays, as the
    // spacing's reference, until one above replaces it).
    let drop = 0;
    while (drop < this.#checkpoints.length && this.#checkpoints[drop]!.offset < floor) drop += 1;
    this.#tracker.dropBefore(floor);
    const straddling = this.#tracker.episodes[0];
    if (straddling && straddling.start < floor && straddling.line !== undefined) {
      this.#checkpoints = this.#checkpoints.slice(Math.min(drop, this.#checkpoints.length - 1));
      return { offset: straddling.start, line: straddling.line };
    }
    const first = this.#firstLine(log, floor, this.#checkpoints[drop]);
    if (first.offset < log.totalBytes) {
      // A line start found between the floor and the next checkpoint is one: kept as the first.
      const later = this.#checkpoints.slice(drop);
      this.#checkpoints = later[0]?.offset === first.offset ? later : [first, ...later];
    } else {
      this.#checkpoints = this.#checkpoints.slice(Math.min(drop, this.#checkpoints.length - 1));
    }
    return first;
  }

  /**
   * Where the first whole line at or after `floor` starts, and its number: at the floor when
   * the log says a line starts there, else after the first line feed the retained history
   * holds. Its number is counted back from the next point whose number is known: a checkpoint,
   * an episode's start, or the end. None retained (a single huge line): only the end is left.
   */
  #firstLine(log: OutputLog, floor: number, checkpoint: Checkpoint | undefined): Checkpoint {
    const episode = this.#tracker.episodes[0];
    let next: Checkpoint = { offset: log.totalBytes, line: this.#lines };
    let closes = false;
    if (checkpoint) next = checkpoint;
    if (episode?.line !== undefined && episode.start < next.offset) {
      next = { offset: episode.start, line: episode.line };
      closes = true;
    }
    const start = log.firstRetainedStartsLine ? floor : this.#lineStartAfter(log, floor, next.offset);
    if (start === undefined || start >= next.offset) {
      // At the end, the unfinished last line is counted too.
      return next.offset === log.totalBytes ? { offset: next.offset, line: this.totalLines } : next;
    }
    return { offset: start, line: next.line - linesBetween(log, start, next.offset, closes) };
  }

  /** lineStartAfter, skipping what an earlier call with the same floor read. */
  #lineStartAfter(log: OutputLog, floor: number, to: number): number | undefined {
    const known = this.#noLineFeed;
    const start = lineStartAfter(log, known.from === floor ? Math.max(floor, known.to) : floor, to);
    this.#noLineFeed = { from: floor, to: start === undefined ? to : start - 1 };
    return start;
  }

  /** The latest checkpoint at or before `line` (at least `from`). */
  #checkpointFor(line: number, from: Checkpoint): Checkpoint {
    let lo = 0;
    let hi = this.#checkpoints.length - 1;
    let best = from;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const cp = this.#checkpoints[mid]!;
      if (cp.line <= line) {
        if (cp.offset >= from.offset) best = cp;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  }
}
