import {
  type EpisodeKind,
  type Foreground,
  FullScreenEpisode,
  MAX_REPAINT_LINES,
} from './full-screen-episode.js';
import { ScreenPool } from './screen-pool.js';
import { ScreenScanner, type ScreenSwitch } from './screen-scan.js';

/** Episodes opened and not yet rendered, at most (see #open). */
const MAX_RENDERING = 4;

/** What the transcript index counts, in order: text, or a rendered episode's start or end. */
export type TranscriptStep =
  | { kind: 'text'; text: string; offset: number }
  | { kind: 'enter' | 'leave'; episode: FullScreenEpisode };

/**
 * Cuts a terminal's output into transcript text and full-screen episodes (see
 * FullScreenEpisode): finds the sequences that begin and end them, feeds each episode its
 * bytes, and hands everything else on as text, in order. Without a terminal (pipes) all of it
 * is text.
 */
export class EpisodeTracker {
  #terminal: { columns: number; rows: number } | undefined;
  readonly #foreground: ((named: boolean) => Foreground | undefined) | undefined;
  readonly #emit: (step: TranscriptStep) => void;
  readonly #scanner = new ScreenScanner();
  /** Every episode still of use, in order; the last may still go on. */
  episodes: FullScreenEpisode[] = [];
  #active: FullScreenEpisode | undefined;
  /** Episodes opened and not rendered yet (the one going on included). */
  #rendering = 0;
  readonly #pool = new ScreenPool();

  constructor(
    terminal: { columns: number; rows: number } | undefined,
    foreground: ((named: boolean) => Foreground | undefined) | undefined,
    emit: (step: TranscriptStep) => void,
  ) {
    this.#terminal = terminal ? { ...terminal } : undefined;
    this.#foreground = foreground;
    this.#emit = emit;
  }

  /** Whether this is a terminal's output (episodes are rendered). */
  get terminal(): boolean {
    return this.#terminal !== undefined;
  }

  /** The episode going on, if any. */
  get active(): FullScreenEpisode | undefined {
    return this.#active;
  }

  add(chunk: string, offsetBefore: number): void {
    if (this.#terminal === undefined) {
      this.#emit({ kind: 'text', text: chunk, offset: offsetBefore });
      return;
    }
    const active = this.#active;
    // A repaint episode is the foreground program's: another one taking over ends it. Not
    // before this chunk but after it: a program's last screen is written just before it
    // exits, and the host often reads it only once the shell has the terminal back. What
    // the shell wrote in the same read is drawn on that screen, as the terminal showed it.
    const ending =
      active?.kind === 'repaint' &&
      active.foreground !== undefined &&
      this.#foreground?.(false)?.group !== active.foreground.group;
    let at = 0;
    let offset = offsetBefore;
    for (const sw of this.#scanner.scan(chunk)) {
      const cut = Math.max(at, sw.start);
      const before = chunk.slice(at, cut);
      this.#route(before, offset);
      offset += Buffer.byteLength(before);
      const part = chunk.slice(cut, sw.end);
      const after = offset + Buffer.byteLength(part);
      this.#switch(sw, part, offset, after);
      offset = after;
      at = sw.end;
    }
    this.#route(at === 0 ? chunk : chunk.slice(at), offset);
    if (ending && this.#active === active) this.#leave(active, offsetBefore + Buffer.byteLength(chunk));
  }

  /** The terminal was resized: an episode going on redraws at the new size. */
  resize(columns: number, rows: number): void {
    if (this.#terminal === undefined) return;
    this.#terminal = { columns, rows };
    this.#active?.resize(columns, rows);
  }

  /** A PTY start that ran on pipes: nothing is rendered (call before any output). */
  plain(): void {
    this.#terminal = undefined;
  }

  /** The output ended at log offset `totalBytes`: an episode going on is rendered as it was. */
  end(totalBytes: number): void {
    if (this.#active) this.#leave(this.#active, totalBytes);
    this.#pool.close();
  }

  /** Forgets the episodes that ended at or below `floor` (their bytes are gone). */
  dropBefore(floor: number): void {
    let gone = 0;
    while (gone < this.episodes.length && (this.episodes[gone]!.end ?? Infinity) <= floor) gone += 1;
    if (gone > 0) this.episodes = this.episodes.slice(gone);
  }

  /** Text between sequences: to the episode going on, or counted as transcript text. */
  #route(chunk: string, chunkOffset: number): void {
    let text = chunk;
    let offset = chunkOffset;
    if (text === '') return;
    const active = this.#active;
    if (active?.kind === 'repaint') {
      // Plain lines streaming past end the redraw (and the emulator's scrollback is bounded):
      // at the line feed that reaches either budget, wherever the chunks were cut.
      const budget = Math.min(
        2 * this.#terminal!.rows - active.plainLines,
        MAX_REPAINT_LINES - active.linesFed,
      );
      let feeds = 0;
      let at = text.indexOf('\n');
      for (; at !== -1; at = text.indexOf('\n', at + 1)) if (++feeds >= budget) break;
      if (at === -1) {
        active.feed(text);
        active.plainLines += feeds;
        active.linesFed += feeds;
        return;
      }
      const head = text.slice(0, at + 1);
      active.feed(head);
      offset += Buffer.byteLength(head);
      this.#leave(active, offset);
      text = text.slice(at + 1);
      if (text === '') return;
    } else if (active) {
      active.feed(text);
      return;
    }
    this.#emit({ kind: 'text', text, offset });
  }
  /** A sequence (`part` is its share in this chunk) between log offsets `offset` and `after`. */
  #switch(sw: ScreenSwitch, part: string, offset: number, after: number): void {
    const active = this.#active;
    if (sw.kind === 'repaint') {
      if (active) {
        active.feed(part);
        if (active.kind === 'repaint') {
          if (active.linesFed > 0) active.repainted = true;
          active.plainLines = 0;
        }
        return;
      }
      this.#emit({ kind: 'text', text: part, offset });
      this.#open('repaint', after, sw.sequence);
    } else if (sw.kind === 'enter') {
      if (active?.kind === 'alternate') {
        active.feed(part);
        return;
      }
      if (active) {
        // The repaint episode takes the switch with it (its emulator never sees it).
        this.#leave(active, after);
      } else {
        this.#emit({ kind: 'text', text: part, offset });
      }
      this.#open('alternate', after, sw.sequence);
    } else if (active?.kind === 'alternate') {
      this.#leave(active, after);
    } else {
      this.#route(part, offset);
    }
  }
  #open(kind: EpisodeKind, start: number, sequence: string): void {
    // A program toggling screens in a flood must not make the host build emulator after
    // emulator: past MAX_RENDERING episodes not rendered yet, the next ones are stripped.
    if (this.#rendering >= MAX_RENDERING) return;
    const episode = FullScreenEpisode.open(
      kind,
      start,
      sequence,
      this.#foreground?.(true),
      this.#terminal!,
      this.#pool,
    );
    this.#rendering += 1;
    this.#active = episode;
    this.episodes.push(episode);
    this.#emit({ kind: 'enter', episode });
  }
  #leave(episode: FullScreenEpisode, end: number): void {
    this.#active = undefined;
    void episode.finish(end).then(() => {
      this.#rendering -= 1;
    });
    this.#emit({ kind: 'leave', episode });
  }
}
