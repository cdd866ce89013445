import type { WebSocket } from 'ws';
import { sessionRow } from './rows.js';
import type { ViewSession, ViewSessions } from './types.js';

/**
 * Keeps every open page's session list current: sends it on connect and whenever a session
 * event may have changed it (a session started or ended, its state, who has control, whether
 * it waits for input), so a row is never older than the event. While a page is open it follows
 * the registry's events and each listed session's; with no page open it holds nothing.
 */
export class ListChannel {
  #sockets = new Set<WebSocket>();
  #stopRegistry: (() => void) | undefined;
  /** Per listed session: stops following it. */
  #followed = new Map<string, () => void>();
  #scheduled = false;
  #last = '';

  constructor(private readonly sessions: ViewSessions) {}

  add(socket: WebSocket): void {
    this.#sockets.add(socket);
    this.#stopRegistry ??= this.sessions.watch(() => this.#schedule());
    socket.send(this.#current());
    socket.on('close', () => {
      this.#sockets.delete(socket);
      if (this.#sockets.size === 0) this.#stop();
    });
  }

  /** Sends the list to every page if it changed. */
  refresh(): void {
    const previous = this.#last;
    const message = this.#current();
    if (message === previous) return;
    for (const socket of this.#sockets) socket.send(message);
  }

  close(): void {
    for (const socket of this.#sockets) socket.close(1001, 'the view is stopping');
    this.#stop();
  }

  /** Several events of one turn (an exit ends input and control too) make one message. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#sockets.size > 0) this.refresh();
    });
  }

  #current(): string {
    const listed = this.sessions.list() as ViewSession[];
    this.#follow(listed);
    this.#last = JSON.stringify({ type: 'sessions', sessions: listed.map(sessionRow) });
    return this.#last;
  }

  /** Follows the sessions listed now (and only those): their state, control and input changes. */
  #follow(listed: readonly ViewSession[]): void {
    const ids = new Set(listed.map((s) => s.id));
    for (const [id, stop] of this.#followed) {
      if (ids.has(id)) continue;
      stop();
      this.#followed.delete(id);
    }
    for (const session of listed) {
      if (this.#followed.has(session.id)) continue;
      const stopWatch = session.watch((event) => {
        if (event.type !== 'output' && event.type !== 'resize') this.#schedule();
      });
      // The row says when the program waits for input: keep that state checked while shown.
      const stopInput = session.live ? session.watchInput() : undefined;
      this.#followed.set(session.id, () => {
        stopWatch();
        stopInput?.();
      });
    }
  }

  #stop(): void {
    this.#stopRegistry?.();
    this.#stopRegistry = undefined;
    for (const stop of this.#followed.values()) stop();
    this.#followed.clear();
  }
}
