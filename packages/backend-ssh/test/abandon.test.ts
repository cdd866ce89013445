// A connection given up on before it was ready must not throw in the host when its socket
// reports once more: a server resetting the connection the client is closing (ECONNRESET).
import { createServer, type Socket } from 'node:net';
import { Client } from 'ssh2';
import { afterAll, expect, it } from 'vitest';
import { abandon } from '../src/connection.js';

// Answers with an SSH banner and then bytes no SSH peer sends, and resets the connection as
// soon as the client says anything more (its goodbye) or ends.
const server = createServer((socket: Socket) => {
  socket.on('error', () => {});
  let reads = 0;
  socket.on('data', () => {
    reads += 1;
    if (reads === 1) socket.write(Buffer.alloc(64, 0xff));
    else socket.resetAndDestroy();
  });
  socket.on('end', () => socket.resetAndDestroy());
  socket.write('SSH-2.0-not-really\r\n');
});

afterAll(() => {
  server.close();
});

it('absorbs what the socket reports after the client was given up on', async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client = new Client();
  const first = new Promise<Error>((resolve) =>
    client.once('error', (error) => {
      abandon(client);
      resolve(error);
    }),
  );
  // (not events.once: it rejects on the 'error' this test expects first)
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  client.connect({ host: '127.0.0.1', port, username: 'nobody', readyTimeout: 10_000 });
  expect((await first).message).toBe('Bad packet length');
  // The reset arrives while the client closes; without a listener it was an uncaught exception.
  await closed;
});
