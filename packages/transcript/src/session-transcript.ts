// The one object a session holds for the text a model reads of it: the byte log, the line
// index log() pages, the live text of each stream, the recording's timeline and the screen's
// gate. A session calls these few methods; how each view is kept is this package's business.
import { excerptLog } from './excerpt/log-excerpt.js';
import { budgetTranscript, type TranscriptExcerptRequest } from './excerpt/transcript-excerpt.js';
import type { OutputBudgetResult } from './excerpt/truncate.js';
import type { LogResult } from './lines/log-result.js';
import { TranscriptIndex } from './lines/transcript-index.js';
import type { OutputLog } from './log/output-log.js';
import type { OutputStream } from './log/stream-runs.js';
import { type AsciicastSource, asciicast } from './record/asciicast.js';
import { OutputTimeline } from './record/output-timeline.js';
import type { Foreground } from './screen/full-screen-episode.js';
import { LiveText } from './screen/live-text.js';
import type { ScreenGate } from './screen/screen-gate.js';

export interface SessionTranscriptInit {
  /** The session's byte log (see sessionOutputLog for one with the registry's caps). */
  log: OutputLog;
  /** A terminal session's size: full-screen programs are rendered. Pipes leave it out. */
  terminal?: { columns: number; rows: number } | undefined;
  /** The terminal's foreground job now (a repaint episode ends when it changes). */
  foreground?: (named: boolean) => Foreground | undefined;
  /** Shuts the session's screen off from the run (closed when the session falls back to pipes). */
  gate?: ScreenGate | undefined;
}

/**
 * append, page, excerpt, live (the screen-side text of each stream), record, retire: what a
 * session does with its transcript. The log stays readable as `log` for byte-addressed reads
 * (output(), poll's drain, metadata's counts).
 */
export class SessionTranscript {
  readonly log: OutputLog;
  /** Each stream's current line as a person sees it, and what a poll shows of new output. */
  readonly live = { stdout: new LiveText(), stderr: new LiveText() };
  readonly #index: TranscriptIndex;
  readonly #timeline = new OutputTimeline();
  readonly #gate: ScreenGate | undefined;

  constructor(init: SessionTranscriptInit) {
    this.log = init.log;
    this.#gate = init.gate;
    this.#index = new TranscriptIndex({
      terminal: init.terminal,
      ...(init.foreground ? { foreground: init.foreground } : {}),
    });
  }

  /**
   * A chunk of output, with its UTF-8 bytes when the caller has them; returns its size in
   * bytes. Marked on the timeline at `at` (epoch ms), stored, then counted by the index.
   */
  append(stream: OutputStream, chunk: string, bytes?: Uint8Array, at = Date.now()): number {
    const before = this.log.totalBytes;
    this.#timeline.mark(before, at);
    const size = this.log.append(stream, chunk, bytes);
    this.#index.add(chunk, before, size);
    return size;
  }

  /** A page of whole lines (`log()`), exact across the retained history; O(page). */
  page(options: { offset?: number; limit?: number }, pageBytes: number): Promise<LogResult> {
    return this.#index.page(this.log, options, pageBytes);
  }

  /** The whole transcript as chunks, read `pageBytes` of log at a time. */
  chunks(pageBytes: number): AsyncGenerator<string> {
    return this.#index.chunks(this.log, pageBytes);
  }

  /**
   * The transcript cut to a budget (head, tail, error lines between), never held whole, lines
   * numbered as page() numbers them (from `request.firstLine`, 0 by default). A pipe's is read
   * only where the cut shows text or may find an error line; a terminal's is streamed whole
   * (its full-screen episodes render).
   */
  async excerpt(request: TranscriptExcerptRequest, pageBytes: number): Promise<OutputBudgetResult> {
    const starts = await this.#index.lineStarts(this.log);
    // Nothing awaits from here on: the log and the index hold still while the cut reads them.
    // A terminal's, one whose retained history holds no whole line (all of it one line), or
    // one whose oldest lines the cap dropped since the index was asked.
    if (
      starts === undefined ||
      (starts[0]!.offset === this.log.totalBytes && this.log.retainedBytes > 0) ||
      starts[0]!.offset < this.log.firstRetainedOffset
    ) {
      return budgetTranscript(this.chunks(pageBytes), request);
    }
    return excerptLog(this.log, starts, request, pageBytes);
  }

  /** The terminal was resized at `at`: the index renders at the new size, the recording says so. */
  resize(at: number, columns: number, rows: number): void {
    this.#index.resize(columns, rows);
    this.#timeline.resized(at, columns, rows);
  }

  /** A PTY start that ran on pipes: no screen from here on, the transcript is read as written. */
  plain(): void {
    this.#gate?.close();
    this.#index.plain();
  }

  /**
   * The session ended: an episode still open is closed at the log's end, and a log that
   * spilled gives back its memory window (see OutputLog.complete()).
   */
  end(): void {
    this.#index.end(this.log.totalBytes);
    this.log.complete();
  }

  /** The retained output as an asciicast v2 recording. */
  record(source: AsciicastSource): string {
    return asciicast(this.log, this.#timeline, source);
  }

  /** The session left its registry: the spill file goes; settles once it is closed. */
  retire(): Promise<void> {
    this.log.close();
    return this.log.flushed();
  }
}
