import type { WebSocket } from 'ws';
import { sessionRow } from './rows.js';
import type { ViewSession, ViewSessions } from './types.js';

/** How often the list is compared with what the pages last got, while a page is open. */
export const LIST_INTERVAL_MS = 250;

/**
 * Keeps every open page's session list current: sends it on connect and whenever it changed
 * (new sessions, state, control). Compares on a short timer that runs only while a page is open.
 */
export class ListChannel {
  #sockets = new Set<WebSocket>();
  #timer: NodeJS.Timeout | undefined;
  #last = '';

  constructor(private readonly sessions: ViewSessions) {}

  add(socket: WebSocket): void {
    this.#sockets.add(socket);
    socket.send(this.#current());
    socket.on('close', () => {
      this.#sockets.delete(socket);
      if (this.#sockets.size === 0) this.#stop();
    });
    this.#timer ??= setInterval(() => this.refresh(), LIST_INTERVAL_MS);
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

  #current(): string {
    const rows = (this.sessions.list() as ViewSession[]).map(sessionRow);
    this.#last = JSON.stringify({ type: 'sessions', sessions: rows });
    return this.#last;
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
