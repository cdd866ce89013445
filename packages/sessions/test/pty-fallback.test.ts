import { disposeAfterEach, makeWorkspace } from '@procmux/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

// No PTY can be opened here (as in a container without /dev/ptmx): the supervisor loads
// @procmux/pty-posix lazily, and this file's copy refuses. The pipe runs are real.
vi.mock('@procmux/pty-posix', () => ({
  createPtyAdapter: () => Promise.reject(new Error('no /dev/ptmx in this container')),
}));

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

describe("a PTY start that falls back to pipes (ptyFallback: 'pipe')", () => {
  it('behaves like a pipe session: streams as written, no screen, and says it fell back', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, logger: { warn: () => {} } }));
    const s = await sessions.start({
      shell: true,
      command: "printf 'hello\\nworld\\n'; echo err >&2",
      pty: true,
      ptyFallback: 'pipe',
    });
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
    const meta = s.metadata();
    expect(meta).toMatchObject({ pty: true, stdioMode: 'pipe', ptyFellBack: true, emulated: false });
    expect(s.holdsScreen).toBe(false);
    expect(s.canResize).toBe(false);
    expect('resize' in s).toBe(false);
    const polled = await s.poll();
    // No stair-stepping, and stderr stays apart.
    expect(polled.stdout).toBe('hello\nworld\n');
    expect(polled.stderr).toBe('err\n');
    const log = await s.log({ offset: 0 });
    expect(log.text.split('\n').sort()).toEqual(['err', 'hello', 'world']);
    expect(log.text).not.toMatch(/ {2,}/);
    // screen() is for terminal sessions only, as on any pipe session.
    await expect(s.screen()).rejects.toMatchObject({ code: 'ERR_PROCESS_UNSUPPORTED' });
    const snapshot = await s.snapshot();
    expect(snapshot.emulated).toBe(false);
  });

  it('takes input as a pipe session does, and a session that got its PTY says it did not fall back', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, logger: { warn: () => {} } }));
    const s = await sessions.start({ command: 'cat', args: [], pty: true, ptyFallback: 'pipe' });
    await s.input('one\n');
    const first = await s.poll({ timeoutMs: 5_000 });
    expect(first.stdout).toBe('one\n');
    await s.closeStdin();
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
    const piped = await sessions.start({ command: 'true', args: [] });
    expect(piped.metadata().ptyFellBack).toBe(false);
  });
});
