import {
  assertNoLeakedProcesses,
  descendantsOf,
  disposeAfterEach,
  isAlive,
  makeWorkspace,
  rejectsWith,
  throwsWith,
  waitFor,
} from '@procmux/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

function registry(
  extra: Parameters<typeof createProcessSessions>[0] extends infer O ? Partial<O> : never = {},
) {
  sessions = track(createProcessSessions({ cwd: workspace, ...extra }));
  return sessions;
}

describe('reading output', () => {
  it('pages raw history by byte cursor and reports the end', async () => {
    const s = await registry().start({ command: 'printf', args: ['\\033[31mred\\033[0m héllo'] });
    await s.wait({ timeoutMs: 10_000 });
    const first = await s.output({ cursor: 0, maxBytes: 8 });
    expect(first.data).toBe('\x1b[31mred');
    expect(first.eof).toBe(false);
    const rest = await s.output({ cursor: first.cursor });
    expect(rest.data).toBe('\x1b[0m héllo');
    expect(rest.eof).toBe(true);
    await rejectsWith(s.output({ maxBytes: 50 * 1024 + 1 }), 'ERR_INVALID_OPTION');
    await rejectsWith(s.output({ cursor: -1 }), 'ERR_INVALID_OPTION');
  });

  it('poll resolves when output arrives, not at the end of its timeout', async () => {
    const s = await registry().start({ command: 'sh', args: ['-c', 'sleep 0.3; echo late; sleep 30'] });
    const result = await s.poll({ timeoutMs: 60_000 });
    // No clock needed: a poll that waited out its 60 s would find the program (30.3 s long) ended.
    expect(result).toMatchObject({ stdout: 'late\n', stderr: '', state: 'running', exitCode: null });
  });

  it('poll resolves on exit and strips ANSI from pipe output, streams apart', async () => {
    const s = await registry().start({
      command: 'sh',
      args: ['-c', 'printf "\\033[1mbold\\033[0m\\n"; echo oops >&2; exit 2'],
    });
    let result = await s.poll({ timeoutMs: 60_000 });
    let out = result.stdout;
    let err = result.stderr;
    while (result.state === 'running') {
      result = await s.poll({ timeoutMs: 60_000 });
      out += result.stdout;
      err += result.stderr;
    }
    expect(out).toBe('bold\n');
    expect(err).toBe('oops\n');
    expect(result).toMatchObject({ state: 'exited', exitCode: 2, signal: null });
  });

  it('poll shows a pipe prompt that has no newline, then the rest of its line', async () => {
    const s = await registry().start({
      command: 'sh',
      args: ['-c', 'printf "name? "; read n; echo "hi $n"'],
    });
    expect((await s.poll({ timeoutMs: 60_000 })).stdout).toBe('name? ');
    await s.input('bob\n');
    let rest = '';
    let result = await s.poll({ timeoutMs: 60_000 });
    rest += result.stdout;
    while (result.state === 'running') {
      result = await s.poll({ timeoutMs: 60_000 });
      rest += result.stdout;
    }
    // The line only grew (pipes do not echo input), so just its new characters come back.
    expect(rest).toBe('hi bob\n');
  });

  it('log returns the last 200 lines by default and pages with offset/limit', async () => {
    const s = await registry().start({ command: 'seq', args: ['1', '500'] });
    await s.wait({ timeoutMs: 10_000 });
    const tail = await s.log();
    expect(tail).toMatchObject({ offset: 300, lines: 200, totalLines: 500, cut: true });
    expect(tail.text.split('\n')[0]).toBe('301');
    expect(tail.text.split('\n').at(-1)).toBe('500');
    const page = await s.log({ offset: 0, limit: 3 });
    expect(page).toMatchObject({ text: '1\n2\n3', offset: 0, lines: 3, cut: true });
    const all = await s.log({ offset: 0, limit: 1000 });
    expect(all.cut).toBe(false);
    await rejectsWith(s.log({ limit: 0 }), 'ERR_INVALID_OPTION');
    await rejectsWith(s.log({ offset: -1 }), 'ERR_INVALID_OPTION');
  });
});

describe('writing', () => {
  it('writes input to a pipe session and closes stdin', async () => {
    const s = await registry().start({ command: 'cat', args: [] });
    await s.input('hello\n');
    await s.closeStdin();
    expect((await s.wait({ timeoutMs: 10_000 })).exitCode).toBe(0);
    expect((await s.poll()).stdout).toBe('hello\n');
  });

  it('refuses input over maxInputBytes and NUL on a PTY', async () => {
    const reg = registry({ limits: { maxInputBytes: 16 } });
    const pipe = await reg.start({ command: 'cat', args: [] });
    const error = await rejectsWith(pipe.input('x'.repeat(17)), 'ERR_PROCESS_LIMIT');
    expect(error.message).toBe('input is 17 bytes; at most 16 bytes per call');
    await pipe.input('ok\0fine\n'); // pipes carry any byte
    const pty = await reg.start({ command: 'cat', args: [], pty: true });
    await rejectsWith(pty.input('a\0b'), 'ERR_PROCESS_POLICY');
  });

  it.skipIf(process.platform !== 'linux')(
    "names the terminal's foreground command line: the shell's child, not the shell; none on pipes or once ended",
    async () => {
      const reg = registry();
      const s = await reg.start({ command: 'bash', args: ['-c', 'sleep 30; true'], pty: true });
      const seen = await waitFor(
        () => (s.foregroundCommand?.[0] === 'sleep' ? s.foregroundCommand : undefined),
        10_000,
        'sleep in the foreground',
      );
      expect(seen).toEqual(['sleep', '30']);
      const pipe = await reg.start({ command: 'sleep', args: ['30'] });
      expect(pipe.foregroundCommand).toBeUndefined();
      await s.kill();
      await s.wait();
      expect(s.foregroundCommand).toBeUndefined();
      await pipe.kill();
    },
  );

  it('refuses bracketed paste on pipes and writes plain text there', async () => {
    const s = await registry().start({ command: 'cat', args: [] });
    await rejectsWith(s.paste('x', { bracketed: true }), 'ERR_INVALID_OPTION');
    expect(s.bracketedPaste).toBe(false);
    await s.paste('plain\n');
    await s.closeStdin();
    await s.wait({ timeoutMs: 10_000 });
    expect((await s.poll()).stdout).toBe('plain\n');
  });

  it('negotiates bracketed paste from what the program asked for', async () => {
    // The program turns bracketed paste on, then echoes raw bytes back as hex.
    const s = await registry().start({
      command: 'bash',
      args: ['-c', "printf '\\033[?2004h'; stty raw -echo; head -c 14 | od -An -c | tr -s ' '"],
      pty: true,
      screen: false,
    });
    await waitFor(
      async () => (await s.output({ cursor: 0 })).data.includes('\x1b[?2004h'),
      10_000,
      'mode switch',
    );
    expect(s.bracketedPaste).toBe(true);
    // The terminal is raw once head reads it (stty ran before it).
    await waitFor(
      () => descendantsOf(s.pid!).some((p) => p.command.startsWith('head ')),
      10_000,
      'head reading',
    );
    await s.paste('hi');
    await waitFor(
      async () => (await s.output({ cursor: 0 })).data.includes('~'),
      10_000,
      'echo of the paste',
    );
    const out = (await s.output({ cursor: 0 })).data;
    expect(out).toContain('033 [ 2 0 0 ~ h i 033 [ 2 0 1 ~');
  });

  it('asks the policy again on input, signal and kill', async () => {
    const denied = new Set(['input', 'signal', 'kill']);
    const reg = registry({
      policy: (r) => (denied.has(r.action) ? { allow: false, reason: `${r.action} off` } : true),
    });
    const s = await reg.start({ command: 'sleep', args: ['30'] });
    expect((await rejectsWith(s.input('x'), 'ERR_PROCESS_POLICY')).message).toBe(
      'policy denied input: input off',
    );
    await rejectsWith(s.signal('SIGTERM'), 'ERR_PROCESS_POLICY');
    await rejectsWith(s.kill(), 'ERR_PROCESS_POLICY');
    expect(s.state).toBe('running');
    denied.clear();
    await s.kill();
  });
});

describe('signals, kill, release', () => {
  it('signal sends a named signal; the session ends killed with no exit code', async () => {
    const s = await registry().start({ command: 'sleep', args: ['30'] });
    await s.signal('SIGTERM');
    expect(await s.wait({ timeoutMs: 10_000 })).toEqual({
      exitCode: null,
      signal: 'SIGTERM',
      state: 'killed',
    });
    await rejectsWith(s.signal('SIGNOPE' as never), 'ERR_INVALID_OPTION');
  });

  it('kill takes down the whole tree', async () => {
    const s = await registry().start({
      command: 'bash',
      args: ['-c', 'sleep 30 & sleep 30 & setsid sleep 30 & echo up; wait'],
    });
    await waitFor(async () => (await s.output({ cursor: 0 })).data.includes('up'), 10_000, 'tree up');
    expect(await s.kill()).toMatchObject({ state: 'killed', exitCode: null });
    await assertNoLeakedProcesses();
  });

  it('release stops tracking, leaves the process running, and refuses later calls', async () => {
    const reg = registry();
    const s = await reg.start({ command: 'sleep', args: ['30'] });
    const pid = s.pid!;
    await s.release();
    expect(s.state).toBe('released');
    expect(isAlive(pid)).toBe(true);
    for (const call of [
      () => s.poll(),
      () => s.input('x'),
      () => s.kill(),
      () => s.wait(),
      () => s.release(),
    ]) {
      await rejectsWith(call(), 'ERR_PROCESS_STATE');
    }
    expect(s.metadata().state).toBe('released');
    await reg.dispose();
    expect(isAlive(pid)).toBe(true); // dispose leaves released sessions alone
    process.kill(-pid, 'SIGKILL');
  });

  it('refuses writes and kills on an ended session', async () => {
    const s = await registry().start({ command: 'true', args: [] });
    await s.wait({ timeoutMs: 10_000 });
    for (const call of [
      () => s.input('x'),
      () => s.kill(),
      () => s.signal('SIGINT'),
      () => s.submit(),
      () => s.release(),
    ]) {
      await rejectsWith(call(), 'ERR_PROCESS_STATE');
    }
    expect((await s.log()).totalLines).toBe(0);
  });
});

describe('resize', () => {
  it('resizes a native PTY and limits the rate', async () => {
    const reg = registry({ limits: { maxResizesPerMinute: 2 } });
    const s = await reg.start({ command: 'bash', args: ['-c', 'read; stty size'], pty: true });
    await s.resize!({ columns: 100, rows: 20 });
    await s.resize!({ columns: 80, rows: 24 });
    await rejectsWith(s.resize!({ columns: 90, rows: 24 }), 'ERR_PROCESS_PTY_LIMIT');
    await s.submit();
    await s.wait({ timeoutMs: 10_000 });
    expect(await s.screen()).toContain('24 80');
  });

  it('is unsupported on pipes and validated on PTYs', async () => {
    const reg = registry();
    const pipe = await reg.start({ command: 'sleep', args: ['30'] });
    expect('resize' in pipe).toBe(false);
    await rejectsWith(pipe.screen(), 'ERR_PROCESS_UNSUPPORTED');
    const pty = await reg.start({ command: 'sleep', args: ['30'], pty: true });
    await rejectsWith(pty.resize!({ columns: 121, rows: 24 }), 'ERR_INVALID_OPTION');
  });
});

describe('registry access', () => {
  it('get checks the owner and the id', async () => {
    const reg = registry();
    const s = await reg.start({ command: 'sleep', args: ['30'], owner: 'alice' });
    expect(reg.get(s.id, 'alice')).toBe(s);
    expect(reg.get(s.id)).toBe(s);
    throwsWith(() => reg.get(s.id, 'bob'), 'ERR_PROCESS_OWNERSHIP');
    throwsWith(() => reg.get('proc_nope'), 'ERR_PROCESS_NOT_FOUND');
    expect(reg.list('alice')).toEqual([s]);
    expect(reg.list('bob')).toEqual([]);
  });

  it('cancelOwned kills only that owner’s sessions, or releases them when asked', async () => {
    const reg = registry();
    const a1 = await reg.start({ command: 'sleep', args: ['30'], owner: 'a' });
    const a2 = await reg.start({ command: 'sleep', args: ['30'], owner: 'a', releaseOnCancel: true });
    const b = await reg.start({ command: 'sleep', args: ['30'], owner: 'b' });
    expect(await reg.cancelOwned('a')).toBe(2);
    expect(a1.state).toBe('killed');
    expect(a2.state).toBe('released');
    expect(b.state).toBe('running');
    process.kill(-a2.pid!, 'SIGKILL');
  });

  it('markUnknown and reconcile never invent an exit code', async () => {
    const reg = registry();
    const a = await reg.start({ command: 'sleep', args: ['30'] });
    const b = await reg.start({ command: 'sleep', args: ['30'] });
    const done = await reg.start({ command: 'true', args: [] });
    await done.wait({ timeoutMs: 10_000 });
    reg.markUnknown(a.id);
    expect(a.metadata()).toMatchObject({ state: 'unknown', exitCode: null });
    expect(reg.reconcile()).toBe(1);
    expect(b.metadata()).toMatchObject({ state: 'unknown', exitCode: null });
    expect(done.metadata()).toMatchObject({ state: 'exited', exitCode: 0 });
    throwsWith(() => reg.markUnknown('proc_nope'), 'ERR_PROCESS_NOT_FOUND');
    // dispose still reaps the processes behind unknown records it owns
  });

  it('expires a session past its lifetime on the next access', async () => {
    const events: string[] = [];
    const reg = registry({ onEvent: (e) => events.push(e.type) });
    const s = await reg.start({ command: 'sleep', args: ['30'], lifetimeMs: 200 });
    // Nothing ends it but an access past its lifetime: access until that one comes.
    await waitFor(
      () => {
        reg.list();
        return s.state === 'expired';
      },
      10_000,
      'expiry',
    );
    expect(s.metadata()).toMatchObject({ state: 'expired', exitCode: null });
    expect(events).toContain('process_expired');
  });

  it('keeps ended sessions readable for finishedTtlMs, then forgets them', async () => {
    // The clocks are moved by hand (only Date and performance are faked, the monotonic clock
    // the sweep ages sessions by): no real-time window to hit or miss.
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      const reg = registry({ finishedTtlMs: 5_000 });
      const s = await reg.start({ command: 'echo', args: ['bye'] });
      await s.wait({ timeoutMs: 10_000 });
      vi.advanceTimersByTime(4_999);
      expect(reg.get(s.id)).toBe(s);
      expect(reg.list().map((m) => m.id)).toEqual([s.id]);
      vi.advanceTimersByTime(1);
      throwsWith(() => reg.get(s.id), 'ERR_PROCESS_NOT_FOUND');
      expect(reg.list()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
    throwsWith(() => createProcessSessions({ cwd: workspace, finishedTtlMs: 0 }), 'ERR_INVALID_OPTION');
  });

  it('says why a session ended when it did not simply exit', async () => {
    const reg = registry();
    const idle = await reg.start({ command: 'sleep', args: ['30'], noOutputTimeoutMs: 200 });
    expect(await idle.wait({ timeoutMs: 20_000 })).toMatchObject({ state: 'killed', exitCode: null });
    expect(idle.metadata().endReason).toBe('no-output-timeout');
    const killed = await reg.start({ command: 'sleep', args: ['30'] });
    await killed.kill();
    expect(killed.metadata().endReason).toBe('kill');
    const done = await reg.start({ command: 'true', args: [] });
    await done.wait({ timeoutMs: 10_000 });
    expect(done.metadata().endReason).toBeNull();
  });

  it('dispose kills every session and refuses later use', async () => {
    const reg = registry();
    await reg.start({ command: 'sleep', args: ['30'] });
    await reg.start({ command: 'sleep', args: ['30'], pty: true });
    await reg.dispose();
    await assertNoLeakedProcesses();
    throwsWith(() => reg.get('x'), 'ERR_PROCESS_STATE');
    await rejectsWith(reg.start({ command: 'true' }), 'ERR_PROCESS_STATE');
  });
});
