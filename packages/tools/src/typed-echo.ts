// A terminal echoes what is typed: after paste `print("done")` and submit, the line
// `>>> print("done")` comes back before the program's own `done`, and a wait_for "done"
// matched the echo at once while the program still ran (a model then sent its next keys into
// a busy program). What the tools typed is remembered per session, and its echo (the first
// lines of output after it, each ending with a typed line, in order) is kept out of matches.
import type { ToolSession } from './types.js';

/** A typed line shorter than this is followed through the echo but never masked: `y` ends too many lines. */
const MIN_MASKED_CHARS = 3;
/** Typed lines remembered at most, until a read sees their echo. */
const MAX_PENDING = 32;
/** Longer lines wrap on the terminal, so their echo is not one line to find. */
const MAX_LINE_CHARS = 1_000;
/** What masking puts in place of an echoed line's text: same length, no pattern's letters. */
const MASK = '\u0000';

/** Where the echo lies in a text: [start, end) spans, in order. */
export type EchoSpans = readonly (readonly [number, number])[];

/** A line typed; `afterPrompt`: its echo must follow a prompt (a later line of a text). */
interface TypedLine {
  text: string;
  afterPrompt: boolean;
}

/** The echo expected from what was typed into one session, oldest line first. */
export class TypedEcho {
  #pending: TypedLine[] = [];

  /**
   * Text typed (a paste's, a write's): the echo of its lines is expected next. A later line
   * counts as echoed only after a prompt (a REPL's `... ` or `>>> `): what the first line
   * starts may read the rest itself (`cat`, then `hello`), typed ahead while the terminal was in
   * raw mode and so never echoed, and cat's own `hello` must not be taken for an echo.
   */
  typed(text: string): void {
    // Only the lines that can still be kept are split off: a 1 MiB paste split whole took 43 ms.
    const room = MAX_PENDING - this.#pending.length;
    if (room <= 0) return;
    const lines = text.split(/\r\n|\r|\n/, room + 1);
    // A text ending with a line break leaves the empty start of the next line: nothing typed.
    if (lines.length > 1 && lines.at(-1) === '' && /[\r\n]$/.test(text)) lines.pop();
    lines.slice(0, room).forEach((line, index) => {
      const kept = line.length > MAX_LINE_CHARS ? '' : withoutTrailingBlanks(line);
      this.#pending.push({ text: kept, afterPrompt: index > 0 });
    });
  }

  /** Whether an echo is still expected. */
  get pending(): boolean {
    return this.#pending.length > 0;
  }

  /** `text` (output gathered since the last read) with the echo's typed text masked out. */
  mask(text: string): string {
    return maskSpans(text, this.#walk(text).spans);
  }

  /**
   * Where the echo lies in `text` (output gathered since the last read), and whether text
   * after it could add to that: not once the echo ended or every typed line was echoed.
   */
  spans(text: string): { spans: EchoSpans; settled: boolean } {
    const walk = this.#walk(text);
    return { spans: walk.spans, settled: walk.ended || walk.completed === this.#pending.length };
  }

  /**
   * Forgets what a read returned the echo of. Output that is not the echo (the program's own)
   * ends the expectation: what was not echoed by then will not be (echo off, a raw program).
   */
  consume(text: string): void {
    const walk = this.#walk(text);
    this.#pending = walk.ended ? [] : this.#pending.slice(walk.completed);
  }

  /**
   * Follows the typed lines through `text`'s lines in order: each echo line ends with its typed
   * line (after a prompt). A line that does not, once it is complete, ends the echo.
   */
  #walk(text: string): { spans: [number, number][]; completed: number; ended: boolean } {
    const spans: [number, number][] = [];
    let completed = 0;
    let start = 0;
    while (completed < this.#pending.length && start < text.length) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const line = withoutTrailingBlanks(text.slice(start, end).replace(/\r$/, ''));
      const { text: typed, afterPrompt } = this.#pending[completed]!;
      const before = line.slice(0, line.length - typed.length);
      const echoes =
        (typed === '' ? line.length <= MAX_LINE_CHARS : line.endsWith(typed)) &&
        (!afterPrompt || before.trim() !== '');
      if (newline === -1) {
        // The line the output stands on: its echo may be half there; masked, not yet consumed.
        if (echoes && typed.length >= MIN_MASKED_CHARS)
          spans.push([start + line.length - typed.length, start + line.length]);
        return { spans, completed, ended: false };
      }
      if (!echoes && line !== '') return { spans, completed, ended: true };
      if (!echoes) {
        // A blank line between echo lines (a redraw's) is neither.
        start = newline + 1;
        continue;
      }
      if (typed.length >= MIN_MASKED_CHARS)
        spans.push([start + line.length - typed.length, start + line.length]);
      completed += 1;
      start = newline + 1;
    }
    return { spans, completed, ended: false };
  }
}

/**
 * `text` with `spans` masked; `offset`: where `text` starts in the text the spans were found
 * in (a search's window on a longer text).
 */
export function maskSpans(text: string, spans: EchoSpans, offset = 0): string {
  let masked = '';
  let at = 0;
  for (const [from, to] of spans) {
    const start = Math.max(at, from - offset);
    const end = Math.min(text.length, to - offset);
    if (end <= start) continue;
    masked += text.slice(at, start) + MASK.repeat(end - start);
    at = end;
  }
  return at === 0 ? text : masked + text.slice(at);
}

function withoutTrailingBlanks(line: string): string {
  return line.replace(/[ \t]+$/, '');
}

const echoes = new WeakMap<ToolSession, TypedEcho>();

/** The echo still expected from `session`, if any. */
export function expectedEcho(session: ToolSession): TypedEcho | undefined {
  const echo = echoes.get(session);
  return echo?.pending ? echo : undefined;
}

/** The echo expected from `session`, made on first use. */
function typedEcho(session: ToolSession): TypedEcho {
  let echo = echoes.get(session);
  if (echo === undefined) {
    echo = new TypedEcho();
    echoes.set(session, echo);
  }
  return echo;
}

/**
 * Remembers text the tools typed into a terminal that shows it. Pipes echo nothing, and text
 * typed at a prompt that hides it (a password) is neither echoed nor kept.
 */
export function noteTyped(session: ToolSession, text: string): void {
  if (session.stdioMode !== 'pty' || session.metadata().input?.echo === false) return;
  typedEcho(session).typed(text);
}
