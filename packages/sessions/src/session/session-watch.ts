import type { SessionState } from '@procmux/core-types';
import type { InputWait } from '../input-wait/input-watch.js';

/** What a watcher of a session (a live view) hears, in order. Never the input. */
export type SessionWatchEvent =
  /** Output as it arrived; `offset` is the log's byte count once it was appended. */
  | { type: 'output'; data: string; offset: number }
  | { type: 'resize'; columns: number; rows: number }
  | { type: 'state'; state: SessionState }
  /** Who holds the keyboard now (null: the model, as usual). */
  | { type: 'control'; holder: string | null }
  /** The program started or stopped waiting for input (null: not waiting). */
  | { type: 'input'; input: InputWait | null };

export type SessionWatcher = (event: SessionWatchEvent) => void;

/** Listeners of one session; one that throws is dropped, never breaks the session. */
export class SessionWatchers {
  #listeners = new Set<SessionWatcher>();

  add(listener: SessionWatcher): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  get size(): number {
    return this.#listeners.size;
  }

  emit(event: SessionWatchEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        this.#listeners.delete(listener);
      }
    }
  }
}
