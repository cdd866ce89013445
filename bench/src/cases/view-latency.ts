// Live view latency: a program's output → the view's WebSocket message a page renders from.
// The figure is the round trip input → program → serveView → a WebSocket client (Node's `ws`,
// standing in for the browser; the browser test measures the page itself). The raw column
// relays the same program's stdout from a child_process pipe over a bare `ws` server: the floor.
import { spawn } from 'node:child_process';
import { WebSocket, WebSocketServer } from 'ws';
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { figure, signedMs } from '../format.js';
import { loadPackage } from '../load.js';
import { BENCH_MARKER_ENV, benchEnv, runMarker, track, untrack } from '../processes.js';
import { loadSessions, type ProcessSessionsView } from '../procmux-api.js';
import { median } from '../stats.js';
import { withTimeout } from '../timing.js';

const ECHO_BYTE = "while IFS= read -r line; do printf 'x\\n'; done";
const SAMPLE_TIMEOUT_MS = 5_000;
const TARGET_MS = 200;

interface ViewModule {
  serveView(
    sessions: unknown,
    options?: { port?: number },
  ): Promise<{ port: number; token: string; close(): Promise<void> }>;
}

/** A WebSocket whose messages are kept from the moment it is created (none slip by). */
class Inbox {
  #messages: string[] = [];
  #waiter: (() => void) | undefined;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => {
      this.#messages.push(raw.toString());
      this.#waiter?.();
    });
  }

  /** Resolves once a message including `needle` arrives (or already did); drops what came before. */
  next(needle: string): Promise<void> {
    return withTimeout(
      new Promise<void>((resolve) => {
        const check = () => {
          const index = this.#messages.findIndex((m) => m.includes(needle));
          if (index === -1) return;
          this.#messages.splice(0, index + 1);
          this.#waiter = undefined;
          resolve();
        };
        this.#waiter = check;
        check();
      }),
      SAMPLE_TIMEOUT_MS,
      'a view message',
    );
  }
}

function opened(url: string, origin: string): Promise<Inbox> {
  const ws = new WebSocket(url, { origin });
  const inbox = new Inbox(ws);
  return withTimeout(
    new Promise((resolve, reject) => {
      ws.once('open', () => resolve(inbox));
      ws.once('error', reject);
    }),
    SAMPLE_TIMEOUT_MS,
    'a WebSocket to open',
  );
}

export const viewLatency: BenchCase = {
  id: 'view-latency',
  title:
    'live view: program output → view WebSocket message [child_process pipe relayed by a bare ws server]',
  target: `≤ ${TARGET_MS} ms median`,
  async run(ctx): Promise<Measured> {
    const { createProcessSessions } = await loadSessions();
    const { serveView } = await loadPackage<ViewModule>('@procmux/view', ['serveView']);
    const runs = ctx.quick ? 20 : 50;
    const sessions: ProcessSessionsView = createProcessSessions({ cwd: ctx.tmpDir });
    const raw = spawn('bash', ['-c', ECHO_BYTE], { env: benchEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
    track(raw.pid);
    const relay = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    const relayListening = new Promise<void>((resolve) => relay.once('listening', () => resolve()));
    relay.on('connection', (socket) => {
      raw.stdout.on('data', (chunk: Buffer) =>
        socket.send(JSON.stringify({ type: 'output', data: chunk.toString() })),
      );
    });
    const view = await serveView(sessions);
    const sockets: Inbox[] = [];
    try {
      const session = await sessions.start({
        shell: true,
        command: ECHO_BYTE,
        pty: false,
        stdin: 'open',
        env: { [BENCH_MARKER_ENV]: runMarker() },
      });
      const origin = `http://127.0.0.1:${view.port}`;
      const viewer = await opened(
        `ws://127.0.0.1:${view.port}/ws/session?id=${session.id}&token=${view.token}`,
        origin,
      );
      sockets.push(viewer);
      await viewer.next('"ready"');
      await relayListening;
      const relayPort = (relay.address() as { port: number }).port;
      const rawClient = await opened(`ws://127.0.0.1:${relayPort}/`, origin);
      sockets.push(rawClient);
      const { a, b } = await alternate({
        warmup: 5,
        runs,
        a: async () => {
          const seen = viewer.next('x');
          const start = performance.now();
          await session.input('\n');
          await seen;
          return performance.now() - start;
        },
        b: async () => {
          const seen = rawClient.next('x');
          const start = performance.now();
          raw.stdin.write('\n');
          await seen;
          return performance.now() - start;
        },
      });
      await session.kill();
      const procmuxMedian = median(a);
      return {
        status: 'measured',
        procmux: figure(a, 'ms'),
        raw: figure(b, 'ms'),
        ratio: signedMs(procmuxMedian - median(b)),
        pass: procmuxMedian <= TARGET_MS,
        notes: [`${runs} round trips per side after 5 warm-up pairs (input → program → WebSocket message)`],
      };
    } finally {
      for (const socket of sockets) socket.ws.terminate();
      relay.close();
      await view.close();
      raw.kill('SIGKILL');
      untrack(raw.pid);
      await sessions.dispose();
    }
  },
};
