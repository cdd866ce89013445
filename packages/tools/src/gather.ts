import type { PollResult } from '@procmux/sessions';
import { GatheredText } from './gathered-text.js';
import type { TextPattern } from './pattern.js';
import { maskSpans, type TypedEcho } from './typed-echo.js';
import type { ToolSession } from './types.js';

/** Most characters kept per stream during one call; older text goes first (the log keeps all). */
export const MAX_GATHER_CHARS = 1_000_000;

/** A pattern is retried over this much already-seen text, so a match split across chunks is found. */
const MATCH_OVERLAP_CHARS = 4_096;

/** Text searched per turn of the event loop, so a flood being searched never stalls it. */
const SEARCH_SLICE_CHARS = 64 * 1024;

/** The echo of what was typed is followed in this much of the text's start (see #masked). */
const ECHO_HEAD_CHARS = 64 * 1024;

/** With an abort signal, waits are cut into slices this long so a cancel is noticed soon. */
const ABORT_CHECK_MS = 250;

type Stream = 'stdout' | 'stderr';

/** A match: its text, and whether earlier calls had already shown all of it. */
export interface Found {
  text: string;
  shown: boolean;
  /** Found on a full-screen program's screen as it is now (see screen-match.ts). */
  onScreen?: true;
}

/** Output collected over several polls within one tool call. */
export class OutputGatherer {
  readonly #text: Record<Stream, GatheredText> = { stdout: new GatheredText(), stderr: new GatheredText() };
  /** Bytes the session dropped between reads (its unread-output cap). */
  droppedBytes = 0;
  /** Bytes this call dropped from the front to stay under MAX_GATHER_CHARS. */
  trimmedBytes = 0;
  /** Polls whose stdout brought text (on a terminal: screen deltas appended one after another). */
  stdoutPieces = 0;
  #tested: Record<Stream, number> = { stdout: 0, stderr: 0 };
  /** The session's number of the last poll that brought stdout here (PollResult.stdoutRead). */
  #lastRead = Number.NaN;
  readonly #echo: TypedEcho | undefined;
  /** The start of each stream's current line as earlier calls returned it (see carryLine). */
  #lead: Record<Stream, string> = { stdout: '', stderr: '' };
  /**
   * Blanks the current line holds after the text gathered ends (see #padFrom): a terminal's
   * output is read with each line's trailing blanks cut, a prompt's `>>> ` included.
   */
  #pad: Record<Stream, string> = { stdout: '', stderr: '' };

  /** `echo`: what the tools typed into the session, whose echo no pattern matches. */
  constructor(echo?: TypedEcho) {
    this.#echo = echo;
  }

  get stdout(): string {
    return this.#text.stdout.toString();
  }

  get stderr(): string {
    return this.#text.stderr.toString();
  }

  /** stdout as the search sees it: the carried start of the line, then what was gathered. */
  get searched(): string {
    return this.#lead.stdout + this.stdout;
  }

  /** Adds one poll's output; true when it brought visible text. */
  add(result: PollResult): boolean {
    this.droppedBytes += result.droppedBytes;
    if (result.stdout !== '') this.stdoutPieces += 1;
    // The lines drawn over are the previous read's: dropped only when that read was this call's
    // (or nothing was gathered yet); else they were another call's, and this text just follows.
    const followsOwn =
      this.#text.stdout.length === 0 ||
      (result.stdoutRead !== undefined && result.stdoutRead === this.#lastRead + 1);
    if (result.redrawnLines && followsOwn) this.#drawOver(result.redrawnLines);
    if (result.stdout !== '' && result.stdoutRead !== undefined) this.#lastRead = result.stdoutRead;
    this.#append('stdout', result.stdout);
    this.#append('stderr', result.stderr);
    this.#padFrom(result);
    return result.stdout !== '' || result.stderr !== '';
  }

  /**
   * Sets where each stream's current line began before this call: the part of the line earlier
   * calls returned, searched as the start of this call's text (so `>` then `>>` is the line
   * `>>>`) but not part of `text()`. Taken from the first poll's `currentLine`: the line less
   * what that poll brought of it, nothing when the poll brought a line break.
   */
  carryLine(result: PollResult): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const line = result.currentLine?.[stream] ?? '';
      const brought = result[stream];
      // Matched against the line as gathered text shows it: a terminal's, without its blanks.
      const shown = line.endsWith(brought) ? line : withoutBlanks(line);
      this.#lead[stream] =
        !brought.includes('\n') && shown.endsWith(brought)
          ? shown.slice(0, shown.length - brought.length)
          : '';
    }
    this.#padFrom(result);
  }

  /**
   * Whether a find would search text it has not: visible text came, or only blanks (a prompt's
   * `>>> ` whose blank a later read brought, which a poll shows as no text at all).
   */
  get unsearched(): boolean {
    return (['stdout', 'stderr'] as const).some(
      (stream) =>
        this.#lead[stream].length + this.#text[stream].length + this.#pad[stream].length !==
        this.#tested[stream],
    );
  }

  /** The first match of `pattern` in text not searched before (plus an overlap), or undefined. */
  async search(pattern: TextPattern): Promise<string | undefined> {
    return (await this.find(pattern))?.text;
  }

  /**
   * The first match of `pattern` in text not searched before (plus an overlap), and whether it
   * lies wholly in the carried part of the current line (earlier calls showed it). Searches
   * slices that end at line ends where it can, yielding to the event loop between them.
   */
  async find(pattern: TextPattern): Promise<Found | undefined> {
    for (const stream of ['stdout', 'stderr'] as const) {
      const lead = this.#lead[stream];
      const total = lead.length + this.#text[stream].length + this.#pad[stream].length;
      const start = Math.max(0, this.#tested[stream] - MATCH_OVERLAP_CHARS);
      this.#tested[stream] = total;
      // Only the text not searched before (and the overlap) is put together: the rest may be a megabyte.
      const shown = this.#shownFrom(stream, start);
      const text = stream === 'stdout' && this.#echo?.pending ? this.#masked(shown, start) : shown;
      let from = 0;
      while (from < text.length) {
        let to = Math.min(text.length, from + SEARCH_SLICE_CHARS);
        if (to < text.length) {
          const lineEnd = text.lastIndexOf('\n', to);
          if (lineEnd > from + MATCH_OVERLAP_CHARS) to = lineEnd + 1;
        }
        const match = pattern.findEnd(text.slice(from, to));
        if (match !== undefined) {
          const end = from + match.end;
          return { text: shown.slice(end - match.text.length, end), shown: start + end <= lead.length };
        }
        if (to >= text.length) break;
        from = Math.max(from + 1, to - MATCH_OVERLAP_CHARS);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return undefined;
  }

  /** The searched text of `stream` (carried line start, gathered text, blanks) from `start`. */
  #shownFrom(stream: Stream, start: number): string {
    const lead = this.#lead[stream];
    const body =
      start <= lead.length
        ? lead.slice(start) + this.#text[stream].toString()
        : this.#text[stream].from(start - lead.length);
    return body + this.#pad[stream];
  }

  /**
   * `shown` (the searched text from `start`) with the echo of what the tools typed masked. The
   * echo is the first lines of the text: they are followed in its head, and the whole text put
   * together only when the head does not settle them.
   */
  #masked(shown: string, start: number): string {
    const echo = this.#echo!;
    const head = this.#lead.stdout + this.#text.stdout.head(ECHO_HEAD_CHARS);
    const found = echo.spans(head);
    if (found.settled || head.length === this.#lead.stdout.length + this.#text.stdout.length)
      return maskSpans(shown, found.spans, start);
    const whole = this.#shownFrom('stdout', 0);
    return maskSpans(shown, echo.spans(whole).spans, start);
  }

  /** Both streams as one text; stderr, when there is any, under a marker of its own. */
  text(): string {
    return formatStreams(this.stdout, this.stderr);
  }

  /**
   * The current line's blanks the gathered text lacks: a terminal's line as the poll read it
   * (`>>> `, the cursor after the blank) where the text ends with it less its blanks (`>>>`).
   * None where the text ends with the whole line (a pipe's) or with something else.
   */
  #padFrom(result: PollResult): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const line = result.currentLine?.[stream] ?? '';
      const trimmed = withoutBlanks(line);
      const endsWith = (suffix: string) => endsJoined(this.#lead[stream], this.#text[stream], suffix);
      this.#pad[stream] =
        trimmed.length < line.length && !endsWith(line) && endsWith(trimmed)
          ? line.slice(trimmed.length)
          : '';
    }
  }

  /**
   * Drops the last `lines` lines of stdout (the carried start of the line counting as the first):
   * the poll's text draws them again in place, and the reply shows what the terminal shows, not
   * every state of a progress display or every frame of top. Lines an earlier reply returned
   * stay there; the log keeps every state.
   */
  #drawOver(lines: number): void {
    const text = this.#text.stdout;
    let cut = text.length;
    for (let line = 0; line < lines; line++) {
      const at = cut === 0 ? -1 : text.lastIndexOf('\n', cut);
      if (at === -1) {
        // The first line, begun before this call, is drawn over too: no longer the current line's start.
        this.#lead.stdout = '';
        cut = 0;
        break;
      }
      cut = at;
    }
    text.truncate(cut);
    this.#tested.stdout = Math.min(this.#tested.stdout, this.#lead.stdout.length + cut);
  }

  #append(stream: Stream, chunk: string): void {
    if (chunk === '') return;
    const text = this.#text[stream];
    text.append(chunk);
    if (text.length > MAX_GATHER_CHARS) {
      let cut = text.length - MAX_GATHER_CHARS;
      const code = text.charCodeAt(cut);
      if (code >= 0xdc00 && code <= 0xdfff) cut += 1;
      this.trimmedBytes += Buffer.byteLength(text.dropFront(cut));
      // The carried line start is older than anything kept now.
      this.#tested[stream] = Math.max(0, this.#tested[stream] - cut - this.#lead[stream].length);
      this.#lead[stream] = '';
    }
  }
}

/** Whether `head + tail` ends with `suffix`, without joining them (a megabyte gathered). */
function endsJoined(head: string, tail: GatheredText, suffix: string): boolean {
  if (tail.length >= suffix.length) return tail.endsWith(suffix);
  const rest = tail.toString();
  return suffix.endsWith(rest) && head.endsWith(suffix.slice(0, suffix.length - rest.length));
}

/** `line` less its trailing blanks (U+0020: a terminal's empty cells read as those). */
function withoutBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 0x20) end -= 1;
  return line.slice(0, end);
}

/** stdout, then stderr under a marker (pipes keep the two apart). */
export function formatStreams(stdout: string, stderr: string): string {
  if (stderr === '') return stdout;
  const out = stdout === '' || stdout.endsWith('\n') ? stdout : `${stdout}\n`;
  return `${out}[stderr]\n${stderr}`;
}

export type GatherEnd = 'settled' | 'quiet' | 'exit' | 'timeout' | 'aborted';

export interface GatherOptions {
  /** Longest the call waits in all. */
  waitMs: number;
  signal?: AbortSignal | undefined;
  /**
   * Return once output came and then paused for `quietMs`, or `maxMs` after it first came,
   * so a burst (a result and the prompt after it) reads as one.
   */
  settle?: { quietMs: number; maxMs: number };
  /** Return once no output came for this long. */
  quietMs?: number;
}

export interface Gathered {
  output: OutputGatherer;
  end: GatherEnd;
  /** The last poll: the session's state at the end. */
  last: PollResult;
  waitedMs: number;
}

/**
 * Polls a session until one of the options' conditions, the exit, the deadline or an abort.
 * Each poll wakes as soon as output or the exit arrives, so nothing here ticks on a schedule.
 */
export async function gather(session: ToolSession, options: GatherOptions): Promise<Gathered> {
  const output = new OutputGatherer();
  const start = Date.now();
  const deadline = start + options.waitMs;
  let firstOutputAt: number | undefined;
  let lastOutputAt = start;
  // After output, a shorter quiet (a daemon's) ends the burst as a settle too.
  const settle = options.settle && {
    quietMs: Math.min(options.settle.quietMs, options.quietMs ?? Number.POSITIVE_INFINITY),
    maxMs: options.settle.maxMs,
  };
  for (;;) {
    const now = Date.now();
    let slice = deadline - now;
    if (settle && firstOutputAt !== undefined) {
      const { quietMs, maxMs } = settle;
      slice = Math.min(slice, lastOutputAt + quietMs - now, firstOutputAt + maxMs - now);
    }
    if (options.quietMs !== undefined) slice = Math.min(slice, lastOutputAt + options.quietMs - now);
    if (options.signal) slice = Math.min(slice, ABORT_CHECK_MS);
    const last = await session.poll({ timeoutMs: Math.max(0, Math.floor(slice)) });
    const grew = output.add(last);
    const at = Date.now();
    const done = (end: GatherEnd): Gathered => ({ output, end, last, waitedMs: at - start });
    if (grew) {
      firstOutputAt ??= at;
      lastOutputAt = at;
    }
    if (last.state !== 'running' && last.state !== 'starting') return done('exit');
    if (options.signal?.aborted) return done('aborted');
    const burst =
      settle && firstOutputAt !== undefined
        ? burstEnd(session, settle, grew, at, firstOutputAt, lastOutputAt)
        : undefined;
    if (burst === 'paused') {
      // The reply's state line reads the input state: asked afresh, not left to the timer's next check.
      await session.checkInput?.().catch(() => null);
    }
    if (burst) return done('settled');
    if (options.quietMs !== undefined && at - lastOutputAt >= options.quietMs) return done('quiet');
    if (at >= deadline) return done('timeout');
  }
}

/**
 * How a burst of output ended, if it did: it paused for `quietMs` (or went on for `maxMs`), or
 * the program now waits for input (nothing more comes until someone types). A poll can also
 * end with nothing to show (output that drew nothing, such as a prompt's trailing blank or a
 * mode switch; the input state changing): that alone is not the pause.
 */
function burstEnd(
  session: ToolSession,
  settle: { quietMs: number; maxMs: number },
  grew: boolean,
  at: number,
  firstOutputAt: number,
  lastOutputAt: number,
): 'paused' | 'input' | undefined {
  if (at - firstOutputAt >= settle.maxMs) return 'paused';
  if (grew) return undefined;
  if (session.metadata().input != null) return 'input';
  return at - lastOutputAt >= settle.quietMs ? 'paused' : undefined;
}
