import { TerminalScreen } from '@procmux/screen';

/** Switches an alternate-screen episode's emulator there: no scrollback, as on a terminal. */
const ENTER_ALTERNATE = '\x1b[?1049h';
/**
 * Lines a repaint episode's emulator keeps above its screen. The episode ends before more
 * line feeds than this went through it (MAX_REPAINT_LINES), so nothing scrolls out unseen.
 */
const REPAINT_SCROLLBACK = 1_000;
export const MAX_REPAINT_LINES = 900;

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
  #screen: TerminalScreen | undefined;

  private constructor(
    kind: EpisodeKind,
    start: number,
    foreground: Foreground | undefined,
    screen: TerminalScreen,
  ) {
    this.kind = kind;
    this.start = start;
    this.foreground = foreground;
    this.#screen = screen;
  }

  /** Undefined when no emulator of that size can be made (the bytes are then stripped as before). */
  static open(
    kind: EpisodeKind,
    start: number,
    sequence: string,
    foreground: Foreground | undefined,
    size: { columns: number; rows: number },
  ): FullScreenEpisode | undefined {
    let screen: TerminalScreen;
    try {
      screen = new TerminalScreen({
        cols: size.columns,
        rows: size.rows,
        scrollback: kind === 'repaint' ? REPAINT_SCROLLBACK : 1,
      });
    } catch {
      return undefined;
    }
    screen.feed(kind === 'alternate' ? ENTER_ALTERNATE : sequence);
    return new FullScreenEpisode(kind, start, foreground, screen);
  }

  feed(text: string): void {
    if (text !== '') this.#screen?.feed(text);
  }

  resize(columns: number, rows: number): void {
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
    if (this.rendered) return this.rendered;
    this.end = end;
    const screen = this.#screen!;
    this.rendered = screen
      .renderFull()
      .then(
        (text) => this.#block(text, false),
        () => this.#block('', false),
      )
      .then((lines) => {
        this.lines = lines;
        this.#screen = undefined;
        screen.dispose();
      });
    return this.rendered;
  }

  #block(text: string, live: boolean): string[] {
    const lines = text === '' ? [] : text.split('\n');
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
