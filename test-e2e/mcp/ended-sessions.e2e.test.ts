// Many short terminal sessions: each ended one gives up its terminal emulator once its final
// screen is taken, and no more than maxEndedSessions are kept (the first to end go first).

import { rmSync } from 'node:fs';
import { createProcessSessions, ENDED_SESSIONS_LIMIT, type ProcessSession } from '@procmux/sessions';
import { assertNoLeakedProcesses, waitFor } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { workspace } from './server.js';

const root = workspace();
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

it('keeps at most 100 ended PTY sessions, none holding an emulator, and prunes the oldest first', async () => {
  const sessions = createProcessSessions({ cwd: root });
  try {
    const count = ENDED_SESSIONS_LIMIT.default + 30;
    const started: ProcessSession[] = [];
    for (let i = 0; i < count; i++) {
      const s = await sessions.start({ command: 'printf', args: [`session ${i}`], pty: true });
      await s.wait({ timeoutMs: 10_000 });
      started.push(s);
    }
    // Ended sessions let their screens go once the final delta is kept: wait for that state.
    await waitFor(() => started.every((s) => !s.holdsScreen), 10_000, 'every screen to be let go');
    const kept = sessions.list();
    expect(kept).toHaveLength(ENDED_SESSIONS_LIMIT.default);
    expect(kept.map((s) => s.id)).toEqual(started.slice(-ENDED_SESSIONS_LIMIT.default).map((s) => s.id));
    expect(started.filter((s) => s.holdsScreen)).toEqual([]);
    // Each still reads back what its terminal showed.
    expect((await started.at(-1)!.log()).text).toBe(`session ${count - 1}`);
    expect((await started[0]!.poll()).stdout).toBe(`session 0`);
  } finally {
    await sessions.dispose();
  }
});
