// What a tmux server on another machine needs from the connection to it: commands run to
// their end, a command streamed while it runs, and the tree kill (the connection's own).
import type { TmuxResult } from '../tmux-cli.js';

export interface RemoteTmuxHost {
  /** Names the machine in messages and refs (`user@host:port`). */
  readonly name: string;
  /** Runs a POSIX sh command line there to its end, with `input` on its stdin. Never throws for a non-zero exit. */
  run(command: string, input?: Buffer): Promise<TmuxResult>;
  /** Runs a command there and hands its stdout (UTF-8, split characters kept whole) to `onData` until it ends. */
  stream(command: string, onData: (data: string) => void): Promise<RemoteStream>;
  /**
   * The verified tree kill there: the process group of `pid` and every process carrying
   * `marker`, then every member of `cgroup` (a directory there), which it removes.
   */
  killTree(pid: number, marker: string, cgroup?: string): Promise<void>;
}

export interface RemoteStream {
  /** Resolves when the command ended (or the connection was lost: rejects then). */
  readonly done: Promise<void>;
  /** Stops reading; the command is left to end by itself. */
  close(): void;
}

/** Quotes one word for sh. */
export function quoteWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A command line from words, each quoted. */
export function commandLine(words: readonly string[]): string {
  return words.map(quoteWord).join(' ');
}
