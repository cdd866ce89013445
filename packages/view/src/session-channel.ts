import { isProcmuxError } from '@procmux/core-types';
import { type HumanControlLease, lfToCrlf, type SessionWatchEvent } from '@procmux/sessions';
import type { RawData, WebSocket } from 'ws';
import type { ViewSession } from './types.js';

/** A page this far behind (bytes queued on its socket) is dropped; reloading it catches up. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** What a page may send. Anything else is answered with an error message. */
type PageMessage = { type: 'take' } | { type: 'release' } | { type: 'input'; data: string };

/**
 * One page attached to one session: the screen first (serialized), then the live output,
 * resizes, state and control changes. Read-only until the page takes control; its keystrokes
 * go to the program through the lease and nowhere else (never logged, never echoed back here).
 */
export async function attachSession(socket: WebSocket, session: ViewSession, holder: string): Promise<void> {
  const pipe = session.stdioMode === 'pipe';
  const send = (message: object) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.close(1013, 'too far behind the session; reload the page');
      return;
    }
    socket.send(JSON.stringify(message));
  };
  let lease: HumanControlLease | undefined;
  let snapshotOffset: number | undefined;
  const early: SessionWatchEvent[] = [];
  const forward = (event: SessionWatchEvent) => {
    if (event.type === 'output') {
      if (snapshotOffset === undefined) {
        early.push(event);
        return;
      }
      if (event.offset <= snapshotOffset) return;
      send({ type: 'output', data: pipe ? lfToCrlf(event.data) : event.data });
    } else if (event.type === 'control') {
      send({ type: 'control', holder: event.holder, mine: lease !== undefined && !lease.released });
    } else {
      send(event);
    }
  };
  // Watch before the snapshot: output arriving meanwhile is kept and sent after it, once.
  const stop = session.watch(forward);
  socket.on('close', () => {
    stop();
    lease?.release();
  });
  socket.on('message', (raw: RawData) => {
    void handle(raw).catch((error: unknown) => {
      send({ type: 'error', message: isProcmuxError(error) ? error.message : 'the request failed' });
    });
  });

  async function handle(raw: RawData): Promise<void> {
    const message = parse(raw);
    if (message === undefined) {
      send({ type: 'error', message: 'unknown message; send take, release or input' });
      return;
    }
    if (message.type === 'take') {
      if (lease && !lease.released) return;
      lease = await session.takeControl({ holder });
      send({ type: 'control', holder, mine: true });
    } else if (message.type === 'release') {
      lease?.release();
    } else if (!lease || lease.released) {
      send({ type: 'error', message: 'read-only: take control to type into this session' });
    } else {
      await lease.write(message.data);
    }
  }

  const size = session.terminalSize;
  send({
    type: 'hello',
    id: session.id,
    columns: size?.columns ?? 80,
    rows: size?.rows ?? 24,
    state: session.state,
    pipe,
    control: session.humanControl?.holder ?? null,
  });
  const snap = await session.snapshot();
  snapshotOffset = snap.offset;
  send({ type: 'output', data: pipe ? lfToCrlf(snap.data) : snap.data });
  for (const event of early.splice(0)) forward(event);
  send({ type: 'ready' });
}

function parse(raw: RawData): PageMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString());
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as { type?: unknown; data?: unknown };
  if (message.type === 'take' || message.type === 'release') return { type: message.type };
  if (message.type === 'input' && typeof message.data === 'string')
    return { type: 'input', data: message.data };
  return undefined;
}
