import type { TerminalScreen } from '@procmux/screen';
import { POOL_SCROLLBACK, type ScreenPool } from './screen-pool.js';

/** Switches an alternate-screen episode's emulator there: no scrollback, as on a terminal. */
const ENTER_ALTERNATE = '\x1b[?1049h';
/** A repaint episode ends before more line feeds than its emulator's scrollback went through it. */
export const MAX_REPAINT_LINES = POOL_SCROLLBACK - 100;
/** The longest tail of controls an alternate episode holds back; a longer one is fed at once. */
const MAX_HELD = 1024;
// One escape sequence from its ESC (perhaps cut off at the end): CSI, OSC, DCS/SOS/PM/APC, or
// ESC with intermediates and a final.
const SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?/y;
const LINE_FEEDS = /[\n\v\f]/g;

/**
 * 'alternate': a program on the alternate screen (vim, less, htop). 'repaint': the normal
 * screen redrawn in place by cursor addressing (procps top, `clear`, Ctrl-L).
 */
export type EpisodeKind = 'alternate' | 'repaint';

/** The marker lines around a rendered episode in the transcript (see the README, "Choices"). */
export function episodeMarkers(
  kind: EpisodeKind,
  program: string | undefined,
): { start: string; live: string; end: string } {
  if (kind === 'repaint') {
    const by = program ? ` by ${program}` : '';
    return {
      start: `[screen repainted in place${by}: its last state, rendered]`,
      live: `[screen repainted in place${by}: as it is now, rendered]`,
      end: `[end of repainted screen${program ? `: ${program}` : ''}]`,
    };
  }
  const name = program ? `full-screen ${program}` : 'full-screen program';
  return {
    start: `[${name}: its last screen, rendered]`,
    live: `[${name}: its screen now, rendered; still running]`,
    end: `[end of ${name}]`,
  };
}

/** Who was in the terminal's foreground (Linux), for the marker and a repaint episode's end. */
export interface Foreground {
  group: number;
  name: string;
}

/**
 * A stretch of terminal output a stripped transcript turns into garbage: a program's stay on
 * the alternate screen, or the normal screen redrawn in place. Its bytes go to an emulator of
 * its own (fed from the episode's first sequence on, so no history above bleeds in); when it
 * ends, the rendered text (right-trimmed lines) stands in the transcript for all of those
 * bytes, between marker lines.
 */
export class FullScreenEpisode {
  readonly kind: EpisodeKind;
  /** Log byte offset just after the sequence that began it: the bytes it stands for start here. */
  readonly start: number;
  readonly foreground: Foreground | undefined;
  /** Log byte offset where it ended (undefined while it goes on). */
  end: number | undefined;
  /** Its first line in the transcript, once the lines before it are counted. */
  line: number | undefined;
  /** The final block (markers included), once rendered. */
  lines: string[] | undefined;
  /** Settles once `lines` is set. */
  rendered: Promise<void> | undefined;
  /** Line feeds fed, and since the last repaint (a repaint episode ends on plain streaming). */
  linesFed = 0;
  plainLines = 0;
  /** Whether it was redrawn after text was shown (else a plain `clear`: no markers). */
  repainted = false;
  /** Made on the first byte: an episode left at once (a program toggling) costs no emulator. */
  #screen: TerminalScreen | undefined;
  #size: { columns: number; rows: number };
  // An alternate episode's output since the last text it drew, when line feeds are in it: fed
  // with more output, or without its line feeds when the program leaves (see #hold).
  #held = '';
  readonly #sequence: string;
  readonly #pool: ScreenPool;

  private constructor(
    kind: EpisodeKind,
    start: number,
    sequence: string,
    foreground: Foreground | undefined,
    size: { columns: number; rows: number },
    pool: ScreenPool,
  ) {
    this.#pool = pool;
    this.kind = kind;
    this.start = start;
    this.#sequence = sequence;
    this.foreground = foreground;
    this.#size = { ...size };
  }

  static open(
    kind: EpisodeKind,
    start: number,
    sequence: string,
    foreground: Foreground | undefined,
    size: { columns: number; rows: number },
    pool: ScreenPool,
  ): FullScreenEpisode {
    return new FullScreenEpisode(kind, start, sequence, foreground, size, pool);
  }

  feed(text: string): void {
    if (text === '' || this.rendered) return;
    if (!this.#screen) {
      try {
        this.#screen = this.#pool.take(this.#size.columns, this.#size.rows);
      } catch {
        // A size the emulator refuses (a 1-column terminal): the episode renders empty.
        this.lines = [];
        this.rendered = Promise.resolve();
        return;
      }
      this.#screen.feed(this.kind === 'alternate' ? ENTER_ALTERNATE : this.#sequence);
    }
    if (this.kind === 'alternate') this.#hold(text);
    else this.#screen.feed(text);
  }

  resize(columns: number, rows: number): void {
    this.#size = { columns, rows };
    try {
      this.#screen?.resize(columns, rows);
    } catch {
      // A size the emulator refuses: it keeps the old one; the render stays readable.
    }
  }

  /** The block as the screen looks now, for a transcript read while the episode goes on. */
  async live(): Promise<string[]> {
    const screen = this.#screen;
    if (this.lines || !screen) return this.lines ?? [];
    try {
      return this.#block(await screen.renderFull(), true);
    } catch {
      return this.lines ?? [];
    }
  }

  /** It ended at log offset `end`: renders the last screen once and frees the emulator. */
  finish(end: number): Promise<void> {
    if (this.end !== undefined) return this.rendered!;
    this.end = end;
    const screen = this.#screen;
    if (!screen) {
      // Nothing was shown (or no emulator could be made): nothing stands in for it.
      this.lines ??= [];
      this.rendered ??= Promise.resolve();
      return this.rendered;
    }
    if (this.#held !== '') screen.feed(this.#held.replace(LINE_FEEDS, ''));
    this.#held = '';
    this.rendered = screen
      .renderFull()
      .then(
        (text) => this.#block(text, false),
        () => this.#block('', false),
      )
      .then((lines) => {
        this.lines = lines;
        this.#screen = undefined;
        this.#pool.give(screen);
      });
    return this.rendered;
  }

  /**
   * A program leaving the alternate screen often first takes the cursor to a fresh line: vim's
   * `:wq` writes its message on the bottom row, then `\r\n`, which scrolls the top row (the
   * file's first line) out of the screen the terminal switches away from at once. So the
   * controls after the last text drawn are held while they hold a line feed; more output feeds
   * them in order, and the leave feeds them without their line feeds. live() renders without
   * them (the screen as of the last text drawn), so a read never changes the last screen. Held
   * at most MAX_HELD units (a longer run is fed, its last MAX_HELD units held), however the
   * output was chunked.
   */
  #hold(chunk: string): void {
    const screen = this.#screen!;
    let text = chunk;
    // A sequence the held part cut off (a chunk ended mid-sequence) goes on in this one.
    if (this.#held.includes('\x1b')) {
      text = this.#held + chunk;
      this.#held = '';
    }
    const tail = afterLastText(text);
    if (tail > 0) {
      // It drew: what was held goes first, in order; its own controls are held only with a line feed.
      if (this.#held !== '') screen.feed(this.#held);
      this.#held = '';
      if (!hasLineFeed(text, tail)) {
        screen.feed(text);
        return;
      }
      screen.feed(text.slice(0, tail));
      this.#held = text.slice(tail);
    } else if (this.#held !== '' || hasLineFeed(text, 0)) {
      this.#held += text;
    } else {
      screen.feed(text);
      return;
    }
    const over = this.#held.length - MAX_HELD;
    if (over > 0) {
      screen.feed(this.#held.slice(0, over));
      this.#held = this.#held.slice(over);
    }
  }

  #block(text: string, live: boolean): string[] {
    const lines = text === '' ? [] : text.split('\n');
    // A screen with nothing on it (a program toggling, a bare clear) stands in as nothing.
    if (lines.length === 0) return [];
    if (this.kind === 'repaint') {
      // Rows above the first one drawn are the screen's, not the program's.
      let first = 0;
      while (first < lines.length && lines[first] === '') first += 1;
      lines.splice(0, first);
      if (!this.repainted) return lines;
    }
    const markers = episodeMarkers(this.kind, this.foreground?.name);
    return live ? [markers.live, ...lines] : [markers.start, ...lines, markers.end];
  }
}

/**
 * Where the controls after the last text of `text` begin (0: it is all controls). Read from the
 * end: past C0 controls to the last other unit, which is text unless the last escape sequence
 * before it reaches over it; then on before that sequence. Each unit of the tail is looked at
 * about once, and a chunk that ends in text costs one backward search for ESC.
 */
function afterLastText(text: string): number {
  let end = text.length;
  for (;;) {
    let last = end - 1;
    while (last >= 0 && isControl(text.charCodeAt(last))) last -= 1;
    if (last < 0) return 0;
    const sequenceStart = text.lastIndexOf('\x1b', last);
    if (sequenceStart === -1) return last + 1;
    SEQUENCE.lastIndex = sequenceStart;
    SEQUENCE.exec(text);
    if (SEQUENCE.lastIndex <= last) return last + 1;
    end = sequenceStart;
  }
}

/** C0 controls but ESC, and DEL. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x1b) || code === 0x7f;
}

function hasLineFeed(text: string, from: number): boolean {
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x0a || code === 0x0b || code === 0x0c) return true;
  }
  return false;
}
