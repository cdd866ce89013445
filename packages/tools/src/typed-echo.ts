// A terminal echoes what is typed: after paste `print("done")` and submit, the line
// `>>> print("done")` comes back before the program's own `done`, and a wait_for "done"
// matched the echo at once while the program still ran (a model then sent its next keys into
// a busy program). What the tools typed is remembered per session, and its echo (the first
// lines of output after it, each ending with a typed line, in order) is kept out of matches.
//
// Typed while the last command still ran (the terminal in its line mode), a text is echoed
// twice: by the kernel at once, each line bare, and again by the shell's line editor, after
// its prompts, when the shell reads it. Both are kept out: `wc -l f.txt` typed ahead matched
// `f.txt$` on either echo before wc had run.
import type { ToolSession } from './types.js';

/** A typed line shorter than this is followed through the echo but never masked: `y` ends too many lines. */
const MIN_MASKED_CHARS = 3;
/** Typed lines remembered at most, until a read sees their echo. */
const MAX_PENDING = 32;
/** Longer lines wrap on the terminal, so their echo is not one line to find. */
const MAX_LINE_CHARS = 1_000;
/**
 * Lines of the last command's own output let pass before the line editor's redraw of text typed
 * ahead; past them the redraw is no longer expected (a program in line mode, `cat`, reads the
 * lines itself and nothing redraws them).
 */
const MAX_BEFORE_REDRAW = 1_000;
/** What masking puts in place of an echoed line's text: same length, no pattern's letters. */
const MASK = '\u0000';

/** Where the echo lies in a text: [start, end) spans, in order. */
export type EchoSpans = readonly (readonly [number, number])[];

/** A line typed; `afterPrompt`: its echo must follow a prompt (a later line of a text). */
interface TypedLine {
  text: string;
  afterPrompt: boolean;
}

/** How far a walk through a text got: the echo's spans, the lines it completed, whether it ended. */
interface Walk {
  spans: [number, number][];
  /** Typed lines whose first echo the text completed. */
  completed: number;
  /** Of those, how many were echoed bare (the kernel's echo of text typed ahead). */
  bare: number;
  /** Whether the text typed is being echoed bare (its first line was). */
  bareFirst: boolean;
  /** Lines of the expected redraw the text completed. */
  redrawn: number;
  /** Whether the redraw has begun, and the lines of other output let pass before it. */
  redrawing: boolean;
  passed: number;
  ended: boolean;
}

/** The echo expected from what was typed into one session, oldest line first. */
export class TypedEcho {
  #pending: TypedLine[] = [];
  // Lines the kernel echoed bare: the line editor may echo them again, after its prompts.
  #redraw: TypedLine[] = [];
  // Whether the lines still pending belong to a text whose first line the kernel echoed bare.
  #bare = false;
  #redrawing = false;
  #passed = 0;
  // The prompt the program last waited at when text was typed: a shell's redraw starts with it.
  #prompt = '';

  /**
   * Text typed (a paste's, a write's): the echo of its lines is expected next. A later line
   * counts as echoed only after a prompt (a REPL's `... ` or `>>> `): what the first line
   * starts may read the rest itself (`cat`, then `hello`), typed ahead while the terminal was in
   * raw mode and so never echoed, and cat's own `hello` must not be taken for an echo. Where
   * the first line's echo is bare, the kernel echoed the text as it came (the terminal in its
   * line mode), and so its later lines are bare too. `prompt`: the line the program waits at
   * now, if it waits (a shell's redraw of text typed ahead starts with it: without one known,
   * none is followed).
   */
  typed(text: string, prompt?: string): void {
    if (prompt !== undefined) this.#prompt = prompt.trim();
    // A new text once the last one was echoed: a redraw still awaited is no longer followed
    // (a program that read the lines itself, cat, leaves one for ever).
    if (this.#pending.length === 0) this.#forget();
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
    return this.#pending.length > 0 || this.#redraw.length > 0;
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
    // Every line echoed, and every line echoed bare echoed again (the redraw may still come).
    const echoed = walk.completed === this.#pending.length && walk.redrawn === this.#redrawOf(walk).length;
    return { spans: walk.spans, settled: walk.ended || echoed };
  }

  /**
   * Forgets what a read returned the echo of. Output that is not the echo (the program's own)
   * ends the expectation: what was not echoed by then will not be (echo off, a raw program).
   */
  consume(text: string): void {
    const walk = this.#walk(text);
    if (walk.ended) {
      this.#pending = [];
      this.#forget();
      return;
    }
    this.#redraw = this.#redrawOf(walk).slice(walk.redrawn);
    this.#pending = this.#pending.slice(walk.completed);
    this.#bare = this.#pending.length > 0 && walk.bareFirst;
    const waiting = this.#redraw.length > 0;
    this.#redrawing = waiting && walk.redrawing;
    this.#passed = waiting ? walk.passed : 0;
  }

  /**
   * The redraw a walk expects: the earlier reads' bare lines, then its own; none where no
   * prompt is known (a program reading in line mode, `cat`, redraws nothing).
   */
  #redrawOf(walk: Walk): TypedLine[] {
    if (this.#prompt === '') return [];
    return [...this.#redraw, ...this.#pending.slice(walk.completed - walk.bare, walk.completed)];
  }

  /** Follows no redraw any more. */
  #forget(): void {
    this.#redraw = [];
    this.#bare = false;
    this.#redrawing = false;
    this.#passed = 0;
  }

  /**
   * Follows the typed lines through `text`'s lines in order: each echo line ends with its typed
   * line (after a prompt, or bare where the first was); then, once every typed line was echoed,
   * the lines echoed bare again, each after a prompt, once the last command's own output (up to
   * MAX_BEFORE_REDRAW lines) has passed. Any other line, once it is complete, ends the echo.
   */
  #walk(text: string): Walk {
    const walk: Walk = {
      spans: [],
      completed: 0,
      bare: 0,
      bareFirst: this.#bare,
      redrawn: 0,
      redrawing: this.#redrawing,
      passed: this.#passed,
      ended: false,
    };
    let start = 0;
    while (start < text.length) {
      const first = walk.completed < this.#pending.length;
      const redraw = first ? [] : this.#redrawOf(walk);
      if (!first && walk.redrawn >= redraw.length) break;
      const { text: typed, afterPrompt } = first ? this.#pending[walk.completed]! : redraw[walk.redrawn]!;
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const line = withoutTrailingBlanks(text.slice(start, end).replace(/\r$/, ''));
      const before = line.slice(0, line.length - typed.length);
      const needsPrompt = first ? afterPrompt && !walk.bareFirst : true;
      // A redraw's first line comes after the prompt itself; its later ones after the shell's
      // continuation prompt (`> `), any.
      const prompted = !first && !afterPrompt ? before.trim() === this.#prompt : before.trim() !== '';
      const echoes =
        (typed === '' ? line.length <= MAX_LINE_CHARS : line.endsWith(typed)) && (!needsPrompt || prompted);
      if (newline === -1) {
        // The line the output stands on: its echo may be half there; masked, not yet consumed.
        if (echoes && typed.length >= MIN_MASKED_CHARS)
          walk.spans.push([start + line.length - typed.length, start + line.length]);
        return walk;
      }
      if (!echoes && line !== '') {
        // The last command's output before the redraw of what was typed ahead: let pass.
        if (!first && !walk.redrawing && walk.passed < MAX_BEFORE_REDRAW) {
          walk.passed += 1;
          start = newline + 1;
          continue;
        }
        return { ...walk, ended: true };
      }
      if (!echoes) {
        // A blank line between echo lines (a redraw's) is neither.
        start = newline + 1;
        continue;
      }
      if (typed.length >= MIN_MASKED_CHARS)
        walk.spans.push([start + line.length - typed.length, start + line.length]);
      if (first) {
        // The first line's echo bare, nothing before it (after a prompt an earlier reply showed,
        // the line editor's echo starts with the prompt's last blank): the kernel's, of text
        // typed ahead; the rest follows bare.
        if (!afterPrompt && before === '') walk.bareFirst = true;
        walk.completed += 1;
        if (walk.bareFirst) walk.bare += 1;
      } else {
        walk.redrawn += 1;
        walk.redrawing = true;
      }
      start = newline + 1;
    }
    return walk;
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
  if (session.stdioMode !== 'pty') return;
  const input = session.metadata().input;
  if (input?.echo === false) return;
  // The prompt it waits at, if it waits: a full-screen program's cursor row is none.
  typedEcho(session).typed(text, input && !input.fullScreen ? input.prompt : undefined);
}
