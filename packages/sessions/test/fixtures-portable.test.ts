// Sessions driving real processes on every OS: the children are the Node fixtures of
// @procmux/test-utils, started without a shell.
import {
  announcedPids,
  assertNoLeakedProcesses,
  fixture,
  isAlive,
  makeWorkspace,
  trackPid,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';

const registries: ProcessSessions[] = [];
function registry(): ProcessSessions {
  const sessions = createProcessSessions({ cwd: makeWorkspace() });
  registries.push(sessions);
  return sessions;
}

function start(name: Parameters<typeof fixture>[0], extra: Record<string, unknown> = {}, ...args: string[]) {
  const { file, args: argv } = fixture(name, ...args);
  return registry().start({ command: file, args: argv, ...extra });
}

/** Polls until `done(text so far)` holds; returns everything read. */
async function pollUntil(session: ProcessSession, done: (text: string) => boolean): Promise<string> {
  let text = '';
  await waitFor(
    async () => {
      text += (await session.poll({ timeoutMs: 1_000 })).stdout;
      return done(text);
    },
    30_000,
    'the expected output',
  );
  return text;
}

afterEach(async () => {
  for (const sessions of registries.splice(0)) await sessions.dispose();
});

describe('sessions on every OS', () => {
  it('a pipe session of a prompt loop: prompt, answer, exit code', async () => {
    const s = await start('prompt-loop');
    trackPid(s.metadata().pid);
    expect(await pollUntil(s, (t) => t.includes('> '))).toBe('> ');
    await s.input('abc\n');
    expect(await pollUntil(s, (t) => t.includes('= 3'))).toContain('= 3');
    await s.input('exit\n');
    expect(await s.wait({ timeoutMs: 30_000 })).toEqual({ exitCode: 0, signal: null, state: 'exited' });
  });

  it('a PTY session of the same loop, read through its screen', async () => {
    const s = await start('prompt-loop', { pty: true });
    trackPid(s.metadata().pid);
    expect(s.metadata().stdioMode).toBe('pty');
    await pollUntil(s, (t) => t.includes('>'));
    await s.paste('hello');
    await s.submit();
    expect(await pollUntil(s, (t) => t.includes('= 5'))).toContain('hello');
    await s.input('exit\r');
    expect((await s.wait({ timeoutMs: 30_000 })).exitCode).toBe(0);
  });

  it('kill() ends the whole tree, the detached grandchild too', async () => {
    const s = await start('tree');
    const text = await pollUntil(s, (t) => t.includes('ready'));
    const pids = announcedPids(text);
    expect(pids.size).toBe(3);
    for (const pid of pids.values()) trackPid(pid);
    await s.kill();
    expect((await s.wait({ timeoutMs: 30_000 })).state).toBe('killed');
    await waitFor(() => [...pids.values()].every((pid) => !isAlive(pid)), 15_000, 'the tree to end');
  });

  it('the exit code of a program that prints and exits is kept, never invented', async () => {
    const s = await start('lines', {}, '2', '9');
    expect(await s.wait({ timeoutMs: 30_000 })).toEqual({ exitCode: 9, signal: null, state: 'exited' });
    expect((await s.output({ cursor: 0 })).data).toBe('line 1\nline 2\n');
  });
});

afterAll(async () => {
  await assertNoLeakedProcesses();
});
