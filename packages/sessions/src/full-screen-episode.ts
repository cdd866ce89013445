import { TerminalScreen } from '@procmux/screen';

/** Switches the episode's own emulator to its alternate screen: no scrollback, as on a terminal. */
const ENTER_ALTERNATE = '\x1b[?1049h';

/** The marker lines around a rendered episode in the transcript (see the README, "Choices"). */
export function episodeMarkers(program: string | undefined): { start: string; live: string; end: string } {
  const name = program ? `full-screen ${program}` : 'full-screen program';
  return {
    start: `[${name}: its last screen, rendered]`,
    live: `[${name}: its screen now, rendered; still running]`,
    end: `[end of ${name}]`,
  };
}

/**
 * One stay of a program on the alternate screen (vim, less, top), which a stripped
 * transcript turns into garbage. Its bytes go to an emulator of its own (fed from the switch
 * on, so no history above bleeds in); when it leaves, its last screen, right-trimmed, stands
 * in the transcript for all of those bytes, between two marker lines.
 */
export class FullScreenEpisode {
  /** Log byte offset just after the switch to the alternate screen: the bytes it stands for start here. */
  readonly start: number;
  readonly program: string | undefined;
  /** Log byte offset just after the switch back (undefined while the program is still there). */
  end: number | undefined;
  /** Its first line in the transcript, once the lines before it are counted. */
  line: number | undefined;
  /** The final block (markers included), once rendered. */
  lines: string[] | undefined;
  /** Settles once `lines` is set. */
  rendered: Promise<void> | undefined;
  #screen: TerminalScreen | undefined;

  private constructor(start: number, program: string | undefined, screen: TerminalScreen) {
    this.start = start;
    this.program = program;
    this.#screen = screen;
  }

  /** Undefined when no emulator of that size can be made (the bytes are then stripped as before). */
  static open(
    start: number,
    program: string | undefined,
    size: { columns: number; rows: number },
  ): FullScreenEpisode | undefined {
    let screen: TerminalScreen;
    try {
      screen = new TerminalScreen({ cols: size.columns, rows: size.rows, scrollback: 1 });
    } catch {
      return undefined;
    }
    screen.feed(ENTER_ALTERNATE);
    return new FullScreenEpisode(start, program, screen);
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

  /** The block as the screen looks now, for a transcript read while the program is still there. */
  async live(): Promise<string[]> {
    const markers = episodeMarkers(this.program);
    const screen = this.#screen;
    if (!screen) return this.lines ?? [markers.live];
    try {
      return [markers.live, ...splitScreen(await screen.renderFull())];
    } catch {
      return this.lines ?? [markers.live];
    }
  }

  /** The program left (or the session ended) at log offset `end`: renders the last screen once. */
  finish(end: number): Promise<void> {
    if (this.rendered) return this.rendered;
    this.end = end;
    const screen = this.#screen!;
    const markers = episodeMarkers(this.program);
    this.rendered = screen
      .renderFull()
      .then(
        (text) => [markers.start, ...splitScreen(text), markers.end],
        () => [markers.start, markers.end],
      )
      .then((lines) => {
        this.lines = lines;
        this.#screen = undefined;
        screen.dispose();
      });
    return this.rendered;
  }
}

function splitScreen(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}
