import { disposeAfterEach, makeWorkspace, throwsWith, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, ENDED_SESSIONS_LIMIT, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

describe('an ended terminal session', () => {
  it('gives up its emulator once the final screen is taken, and still reads back whole', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({
      command: 'sh',
      args: ['-c', 'printf "first line\\n\\033[1msecond\\033[0m line\\n"; sleep 0.2; printf "last words"'],
      pty: true,
    });
    expect(s.holdsScreen).toBe(true);
    let seen = '';
    for (let i = 0; i < 20 && s.live; i++) seen += (await s.poll({ timeoutMs: 1_000 })).stdout;
    await s.wait({ timeoutMs: 10_000 });
    seen += (await s.poll()).stdout;
    expect(seen).toContain('first line\nsecond line\nlast words');
    expect(s.holdsScreen).toBe(false);
    expect(s.emulated).toBe(true);
    // Nothing comes twice after the emulator is gone.
    expect((await s.poll()).stdout).toBe('');
    expect((await s.log()).text).toBe('first line\nsecond line\nlast words');
    expect(await s.screen()).toContain('last words');
    let streamed = '';
    for await (const chunk of s.transcript()) streamed += chunk;
    expect(streamed).toContain('second line\nlast words');
  });

  it('keeps the final screen delta for a poll that comes after the end', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'printf', args: ['unread output'], pty: true });
    await s.wait({ timeoutMs: 10_000 });
    // The screen is let go once the final delta is kept: wait for that, not for a time.
    await waitFor(() => !s.holdsScreen, 10_000, 'the screen to be let go');
    expect((await s.poll()).stdout).toBe('unread output');
  });
});

describe('maxEndedSessions', () => {
  it('prunes the sessions that ended first once more than the cap have ended', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, maxEndedSessions: 2 }));
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await sessions.start({ command: 'echo', args: [`run ${i}`] });
      await s.wait({ timeoutMs: 10_000 });
      ids.push(s.id);
    }
    const running = await sessions.start({ command: 'sleep', args: ['30'] });
    const listed = sessions.list().map((s) => s.id);
    expect(listed).toEqual([ids[2], ids[3], running.id]);
    throwsWith(() => sessions!.get(ids[0]!), 'ERR_PROCESS_NOT_FOUND');
    await running.kill();
  });

  it('defaults to 100 and refuses a value outside 1 to 10,000', () => {
    expect(ENDED_SESSIONS_LIMIT).toEqual({ default: 100, hard: 10_000 });
    throwsWith(() => createProcessSessions({ cwd: workspace, maxEndedSessions: 0 }), 'ERR_INVALID_OPTION');
    throwsWith(
      () => createProcessSessions({ cwd: workspace, maxEndedSessions: 10_001 }),
      'ERR_INVALID_OPTION',
    );
  });
});
