// The session list follows events: a row changes in the turn after the event that changed it,
// with no timer to wait out, and nothing is followed once the last page is gone.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { checkLeaksAfterAll } from '@procmux/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ListChannel } from '../src/list-channel.js';
import type { ViewSessionRow } from '../src/types.js';

let root: string;
let sessions: ProcessSessions;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-list-')));
  sessions = createProcessSessions({ cwd: root });
});
afterEach(async () => {
  await sessions.dispose();
  rmSync(root, { recursive: true, force: true });
});
checkLeaksAfterAll();

/** A page's socket as the channel uses it: what it was sent, and its close. */
function fakePage() {
  const sent: ViewSessionRow[][] = [];
  let onClose = () => {};
  const socket = {
    send: (message: string) => sent.push((JSON.parse(message) as { sessions: ViewSessionRow[] }).sessions),
    on: (_event: 'close', listener: () => void) => {
      onClose = listener;
    },
    close: () => onClose(),
  };
  return {
    socket: socket as unknown as WebSocket,
    sent,
    last: () => sent.at(-1) ?? [],
    close: () => onClose(),
  };
}

/** Lets the turn's scheduled refresh run (it was queued before this). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

it('changes a row in the turn after each session event: start, control taken and given back, end', async () => {
  const channel = new ListChannel(sessions);
  const page = fakePage();
  channel.add(page.socket);
  expect(page.last()).toEqual([]);

  const session = await sessions.start({ command: 'sleep', args: ['30'], pty: true });
  await nextTurn();
  expect(page.last()).toMatchObject([{ id: session.id, state: 'running', control: null }]);

  const lease = await session.takeControl({ holder: 'view tab 1' });
  await nextTurn();
  expect(page.last()).toMatchObject([{ id: session.id, control: 'view tab 1' }]);

  await lease.release();
  await nextTurn();
  expect(page.last()).toMatchObject([{ id: session.id, control: null }]);

  await session.kill();
  await nextTurn();
  expect(page.last()).toMatchObject([{ id: session.id, state: 'killed' }]);

  // With the last page gone nothing is followed: later events send nothing.
  page.close();
  const count = page.sent.length;
  await sessions.start({ command: 'sleep', args: ['30'], pty: true });
  await nextTurn();
  expect(page.sent.length).toBe(count);
  channel.close();
});
