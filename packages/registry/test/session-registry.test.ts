import { isProcmuxError, type ProcmuxErrorCode } from '@procmux/core-types';
import { type ScreenLike, TerminalScreen } from '@procmux/screen';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutputLog } from '../src/output-log.js';
import { SessionRegistry } from '../src/session-registry.js';
import type { Timers } from '../src/sweeper.js';

/** A screen that records what it was fed and renders it as one transcript. */
class FakeScreen implements ScreenLike {
  fed: string[] = [];
  disposed = 0;
  readonly cursor = { row: 1, col: 1 };
  readonly modes = { bracketedPaste: false, applicationCursorKeys: false, alternateScreen: false };
  render: () => Promise<string> = async () => `rendered:${this.fed.join('')}`;
  feed(chunk: string): void {
    this.fed.push(chunk);
  }
  renderFull(): Promise<string> {
    return this.render();
  }
  async renderNew(): Promise<string> {
    return '';
  }
  resize(): void {}
  onReply(): () => void {
    return () => {};
  }
  dispose(): void {
    this.disposed += 1;
  }
}

async function rejection(promise: Promise<unknown>, code: ProcmuxErrorCode): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isProcmuxError(error, code)).toBe(true);
  return (error as Error).message;
}

function thrown(fn: () => unknown, code: ProcmuxErrorCode): string {
  try {
    fn();
  } catch (error) {
    expect(isProcmuxError(error, code)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`expected ${code}`);
}

const registries: SessionRegistry[] = [];
function registry(options?: ConstructorParameters<typeof SessionRegistry>[0]): SessionRegistry {
  const created = new SessionRegistry(options);
  registries.push(created);
  return created;
}

afterEach(() => {
  for (const created of registries.splice(0)) created.dispose();
  vi.useRealTimers();
});

describe('SessionRegistry records', () => {
  it('adds a running session with defaults and finds it by id', () => {
    const r = registry({ now: () => 1_000 });
    const added = r.add({ id: 's1', command: 'npm test', cwd: '/w', meta: { owner: 'alice' } });
    expect(added).toMatchObject({
      status: 'running',
      id: 's1',
      command: 'npm test',
      args: undefined,
      cwd: '/w',
      startedAt: 1_000,
      backgrounded: false,
      screen: undefined,
      meta: { owner: 'alice' },
    });
    expect(added.log).toBeInstanceOf(OutputLog);
    expect(r.get('s1')).toBe(added);
    expect(r.get('nope')).toBeUndefined();
    expect(r.list()).toEqual([added]);
  });

  it('uses the log it is given and copies args', () => {
    const r = registry();
    const log = new OutputLog({ maxUndrainedBytes: 4 });
    const args = ['-c', 'echo hi'];
    const added = r.add({ id: 's1', command: 'bash', args, log, startedAt: 5 });
    args.push('mutated');
    expect(added.log).toBe(log);
    expect(added.args).toEqual(['-c', 'echo hi']);
    expect(added.startedAt).toBe(5);
  });

  it('rejects a taken, empty or missing id and a missing command', () => {
    const r = registry();
    r.add({ id: 's1', command: 'x' });
    expect(thrown(() => r.add({ id: 's1', command: 'y' }), 'ERR_INVALID_OPTION')).toContain('already in use');
    expect(thrown(() => r.add({ id: '', command: 'y' }), 'ERR_INVALID_OPTION')).toContain('non-empty string');
    expect(thrown(() => r.add({ command: 'y' } as never), 'ERR_INVALID_OPTION')).toContain('got undefined');
    expect(thrown(() => r.add({ id: 's2' } as never), 'ERR_INVALID_OPTION')).toContain(
      'command must be a string',
    );
  });

  it('creates distinct 8-hex-digit ids', () => {
    const r = registry();
    const ids = new Set(Array.from({ length: 200 }, () => r.createId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
  });

  it('marks a session backgrounded', () => {
    const r = registry();
    r.add({ id: 's1', command: 'x' });
    expect(r.markBackgrounded('s1').backgrounded).toBe(true);
    expect(r.get('s1')?.backgrounded).toBe(true);
  });

  it('says which id is unknown and which session already finished', async () => {
    const r = registry();
    expect(thrown(() => r.append('ghost', 'stdout', 'x'), 'ERR_PROCESS_NOT_FOUND')).toContain('"ghost"');
    expect(thrown(() => r.drain('ghost'), 'ERR_PROCESS_NOT_FOUND')).toContain('"ghost"');
    expect(thrown(() => r.markBackgrounded('ghost'), 'ERR_PROCESS_NOT_FOUND')).toContain('"ghost"');
    await rejection(r.markExited('ghost', { exitCode: 0, signal: null }), 'ERR_PROCESS_NOT_FOUND');
    r.add({ id: 's1', command: 'x' });
    await r.markExited('s1', { exitCode: 0, signal: null });
    expect(thrown(() => r.append('s1', 'stdout', 'late'), 'ERR_PROCESS_STATE')).toContain('already finished');
    expect(thrown(() => r.drain('s1'), 'ERR_PROCESS_STATE')).toContain('already finished');
    await rejection(r.markExited('s1', { exitCode: 0, signal: null }), 'ERR_PROCESS_STATE');
  });

  it('removes running and finished sessions, disposing a running one’s screen', async () => {
    const r = registry();
    const screen = new FakeScreen();
    r.add({ id: 'run', command: 'x', screen });
    r.add({ id: 'done', command: 'y' });
    await r.markExited('done', { exitCode: 0, signal: null });
    expect(r.remove('run')).toBe(true);
    expect(screen.disposed).toBe(1);
    expect(r.remove('done')).toBe(true);
    expect(r.remove('done')).toBe(false);
    expect(r.list()).toEqual([]);
  });

  it('rejects bad options', () => {
    expect(thrown(() => new SessionRegistry({ ttlMs: 0 }), 'ERR_INVALID_OPTION')).toContain(
      'ttlMs must be an integer from 1 to 86400000 (got 0)',
    );
    expect(thrown(() => new SessionRegistry({ ttlMs: 1.5 }), 'ERR_INVALID_OPTION')).toContain('got 1.5');
    expect(thrown(() => new SessionRegistry({ now: 5 as never }), 'ERR_INVALID_OPTION')).toContain(
      'now must be a function',
    );
    expect(thrown(() => new SessionRegistry({ timers: {} as never }), 'ERR_INVALID_OPTION')).toContain(
      'setTimeout and clearTimeout',
    );
  });
});

describe('SessionRegistry output', () => {
  it('appends to the log and feeds every chunk of both streams to the screen', () => {
    const r = registry();
    const screen = new FakeScreen();
    const session = r.add({ id: 's1', command: 'python3', screen });
    r.append('s1', 'stdout', '>>> ');
    r.append('s1', 'stderr', 'warn\n');
    r.append('s1', 'stdout', '');
    expect(screen.fed).toEqual(['>>> ', 'warn\n']);
    expect(session.log.totalBytes).toBe(9);
    expect(r.drain('s1')).toEqual({ stdout: '>>> ', stderr: 'warn\n', droppedBytes: 0 });
    expect(r.drain('s1')).toEqual({ stdout: '', stderr: '', droppedBytes: 0 });
  });

  it('keeps the output in the log even when the screen throws', () => {
    const r = registry();
    const screen = new FakeScreen();
    screen.feed = () => {
      throw new Error('screen broke');
    };
    const session = r.add({ id: 's1', command: 'x', screen });
    expect(() => r.append('s1', 'stdout', 'kept')).toThrow('screen broke');
    expect(session.log.read().data).toBe('kept');
  });

  it('does not feed the screen a chunk the log rejected', () => {
    const r = registry();
    const screen = new FakeScreen();
    r.add({ id: 's1', command: 'x', screen });
    thrown(() => r.append('s1', 'stdin' as 'stdout', 'x'), 'ERR_INVALID_OPTION');
    expect(screen.fed).toEqual([]);
  });
});

describe('SessionRegistry.markExited', () => {
  it('snapshots a plain session with its ANSI-stripped history and no live parts', async () => {
    let clock = 1_000;
    const r = registry({ now: () => clock });
    r.add({ id: 's1', command: 'make', args: ['all'], cwd: '/w', meta: { owner: 'bob' } });
    r.markBackgrounded('s1');
    r.append('s1', 'stdout', '\u001b[32mok\u001b[0m building\n');
    r.append('s1', 'stderr', '\u001b[1;31merror\u001b[0m: nope\n');
    clock = 4_000;
    const snapshot = await r.markExited('s1', { exitCode: 2, signal: null, reason: 'exit' });
    expect(snapshot).toEqual({
      status: 'failed',
      id: 's1',
      command: 'make',
      args: ['all'],
      cwd: '/w',
      startedAt: 1_000,
      endedAt: 4_000,
      backgrounded: true,
      exitCode: 2,
      signal: null,
      reason: 'exit',
      history: 'ok building\nerror: nope\n',
      tail: 'ok building\nerror: nope\n',
      truncated: false,
      totalBytes: Buffer.byteLength('\u001b[32mok\u001b[0m building\n\u001b[1;31merror\u001b[0m: nope\n'),
      meta: { owner: 'bob' },
    });
    expect(Object.keys(snapshot)).not.toEqual(expect.arrayContaining(['log']));
    expect(Object.keys(snapshot)).not.toEqual(expect.arrayContaining(['screen']));
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(r.get('s1')).toBe(snapshot);
    expect(r.list()).toEqual([snapshot]);
  });

  it('keeps the rendered transcript of an emulated session and disposes its screen', async () => {
    const r = registry();
    const screen = new FakeScreen();
    r.add({ id: 's1', command: 'python3', screen });
    r.append('s1', 'stdout', '>>> 1+1\r\n2\r\n');
    const snapshot = await r.markExited('s1', { exitCode: 0, signal: null });
    expect(snapshot.history).toBe('rendered:>>> 1+1\r\n2\r\n');
    expect(snapshot.status).toBe('completed');
    expect(screen.disposed).toBe(1);
  });

  it('falls back to the stripped log when the screen cannot render, still disposing it', async () => {
    const r = registry();
    const screen = new FakeScreen();
    screen.render = () => Promise.reject(new Error('xterm gone'));
    r.add({ id: 's1', command: 'x', screen });
    r.append('s1', 'stdout', '\u001b[2Jplain');
    const snapshot = await r.markExited('s1', { exitCode: null, signal: 'SIGKILL' });
    expect(snapshot.history).toBe('plain');
    expect(snapshot.status).toBe('killed');
    expect(screen.disposed).toBe(1);
  });

  it('carries truncation, total bytes and a 2,000-character tail of the history', async () => {
    const r = registry();
    r.add({ id: 's1', command: 'x', log: new OutputLog({ maxRetainedBytes: 3000 }) });
    r.append('s1', 'stdout', 'a'.repeat(5000));
    r.append('s1', 'stdout', '😀');
    const snapshot = await r.markExited('s1', { exitCode: 0, signal: null });
    expect(snapshot.truncated).toBe(true);
    expect(snapshot.totalBytes).toBe(5004);
    expect(snapshot.history).toBe(`${'a'.repeat(2996)}😀`);
    expect(snapshot.tail).toBe(`${'a'.repeat(1999)}😀`);
  });

  it.each([
    [{ exitCode: 0, signal: null }, 'completed'],
    [{ exitCode: 3, signal: null }, 'failed'],
    [{ exitCode: null, signal: 'SIGTERM' }, 'killed'],
    [{ exitCode: null, signal: null, reason: 'overall-timeout' }, 'killed'],
    [{ exitCode: null, signal: null, reason: 'spawn-error' }, 'failed'],
  ] as const)('maps %j to %s', async (exit, status) => {
    const r = registry();
    r.add({ id: 's1', command: 'x' });
    expect((await r.markExited('s1', exit)).status).toBe(status);
  });

  it('uses the exit’s own endedAt when given', async () => {
    const r = registry({ now: () => 50 });
    r.add({ id: 's1', command: 'x' });
    expect((await r.markExited('s1', { exitCode: 0, signal: null, endedAt: 42 })).endedAt).toBe(42);
  });

  it('returns the first exit’s snapshot to a second call made while rendering', async () => {
    const r = registry();
    const screen = new FakeScreen();
    let finishRender: (text: string) => void = () => {};
    screen.render = () => new Promise((resolve) => (finishRender = resolve));
    r.add({ id: 's1', command: 'x', screen });
    const first = r.markExited('s1', { exitCode: 0, signal: null });
    const second = r.markExited('s1', { exitCode: null, signal: 'SIGKILL' });
    expect(r.get('s1')?.status).toBe('running');
    finishRender('done');
    expect(await second).toBe(await first);
    expect((await first).status).toBe('completed');
    expect(screen.disposed).toBe(1);
  });

  it('keeps nothing when the session is removed while rendering', async () => {
    const r = registry();
    const screen = new FakeScreen();
    let finishRender: (text: string) => void = () => {};
    screen.render = () => new Promise((resolve) => (finishRender = resolve));
    r.add({ id: 's1', command: 'x', screen });
    const exiting = r.markExited('s1', { exitCode: 0, signal: null });
    r.remove('s1');
    finishRender('late');
    expect((await exiting).history).toBe('late');
    expect(r.get('s1')).toBeUndefined();
    expect(screen.disposed).toBe(1);
  });

  it.each([
    [null, 'exit must be an object'],
    [{ exitCode: 1.5, signal: null }, 'exitCode must be an integer or null (got 1.5)'],
    [{ exitCode: null, signal: 9 }, "signal must be a signal name such as 'SIGTERM', or null (got 9)"],
    [{ exitCode: 0, signal: null, endedAt: Number.NaN }, 'endedAt must be epoch milliseconds'],
  ])('rejects the malformed exit %j', async (exit, says) => {
    const r = registry();
    r.add({ id: 's1', command: 'x' });
    expect(await rejection(r.markExited('s1', exit as never), 'ERR_INVALID_OPTION')).toContain(says);
    expect(r.get('s1')?.status).toBe('running');
  });
});

describe('SessionRegistry sweeper', () => {
  it('schedules nothing at construction', () => {
    vi.useFakeTimers();
    registry();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runs every max(30 s, ttl/6) while sessions are held, and stops once the last is pruned', async () => {
    vi.useFakeTimers({ now: 0 });
    const r = registry({ ttlMs: 60_000 });
    expect(r.sweepIntervalMs).toBe(30_000);
    r.add({ id: 's1', command: 'x' });
    expect(vi.getTimerCount()).toBe(1);
    // A running session keeps the sweeper going.
    await vi.advanceTimersByTimeAsync(90_000);
    expect(vi.getTimerCount()).toBe(1);
    await r.markExited('s1', { exitCode: 0, signal: null });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(r.size).toBe(1); // 30 s old, ttl 60 s
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(r.size).toBe(0);
    expect(r.sweeping).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts again on the next add', async () => {
    vi.useFakeTimers({ now: 0 });
    const r = registry({ ttlMs: 1 });
    r.add({ id: 's1', command: 'x' });
    await r.markExited('s1', { exitCode: 0, signal: null });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(vi.getTimerCount()).toBe(0);
    r.add({ id: 's2', command: 'x' });
    expect(vi.getTimerCount()).toBe(1);
    expect(r.sweeping).toBe(true);
  });

  it('uses ttl/6 for long TTLs and unrefs its timer', () => {
    const scheduled: number[] = [];
    let unrefs = 0;
    const timers: Timers = {
      setTimeout: (_callback, ms) => {
        scheduled.push(ms);
        return { unref: () => unrefs++ };
      },
      clearTimeout: () => {},
    };
    const r = registry({ timers });
    expect(r.ttlMs).toBe(30 * 60 * 1000);
    r.add({ id: 's1', command: 'x' });
    r.add({ id: 's2', command: 'x' });
    expect(scheduled).toEqual([5 * 60 * 1000]);
    expect(unrefs).toBe(1);
  });

  it('hides expired snapshots from get() and list() before the sweep runs', async () => {
    let clock = 0;
    const r = registry({ ttlMs: 1_000, now: () => clock });
    r.add({ id: 'a', command: 'x' });
    r.add({ id: 'b', command: 'x' });
    await r.markExited('a', { exitCode: 0, signal: null });
    clock = 500;
    await r.markExited('b', { exitCode: 0, signal: null });
    clock = 1_000;
    expect(r.get('a')).toBeUndefined();
    expect(r.list().map((s) => s.id)).toEqual(['b']);
    clock = 1_500;
    expect(r.list()).toEqual([]);
    expect(r.sweeping).toBe(false);
  });

  it('stops when get() prunes the last expired snapshot', async () => {
    let clock = 0;
    const r = registry({ ttlMs: 10, now: () => clock });
    r.add({ id: 'a', command: 'x' });
    await r.markExited('a', { exitCode: 0, signal: null });
    expect(r.sweeping).toBe(true);
    clock = 10;
    expect(r.get('a')).toBeUndefined();
    expect(r.sweeping).toBe(false);
  });

  it('stops when the last session is removed', () => {
    vi.useFakeTimers();
    const r = registry();
    r.add({ id: 'a', command: 'x' });
    r.remove('a');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('SessionRegistry.dispose', () => {
  it('stops the sweeper, disposes every screen once and forgets every session', async () => {
    vi.useFakeTimers();
    const r = registry();
    const screens = [new FakeScreen(), new FakeScreen()];
    r.add({ id: 'a', command: 'x', screen: screens[0] });
    r.add({ id: 'b', command: 'x', screen: screens[1] });
    r.add({ id: 'c', command: 'x' });
    await r.markExited('c', { exitCode: 0, signal: null });
    r.dispose();
    r.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(screens.map((s) => s.disposed)).toEqual([1, 1]);
    expect(r.list()).toEqual([]);
    expect(thrown(() => r.add({ id: 'd', command: 'x' }), 'ERR_PROCESS_STATE')).toContain('disposed');
  });

  it('lets a markExited in flight finish without keeping its snapshot', async () => {
    const r = registry();
    const screen = new FakeScreen();
    let finishRender: (text: string) => void = () => {};
    screen.render = () => new Promise((resolve) => (finishRender = resolve));
    r.add({ id: 's1', command: 'x', screen });
    const exiting = r.markExited('s1', { exitCode: 0, signal: null });
    r.dispose();
    finishRender('after dispose');
    expect((await exiting).history).toBe('after dispose');
    expect(r.size).toBe(0);
    expect(screen.disposed).toBe(1);
  });
});

describe('SessionRegistry with a real TerminalScreen', () => {
  it('keeps what the terminal showed, not the raw redraws, and frees the screen', async () => {
    const r = registry();
    const screen = new TerminalScreen({ cols: 40, rows: 5 });
    r.add({ id: 'py', command: 'python3', screen });
    // A REPL-style redraw: the prompt line is rewritten in place, cursor moves back 3 columns.
    r.append('py', 'stdout', '>>> i\r>>> im\r>>> import os\r\n');
    r.append('py', 'stdout', '12345\u001b[3D#\r\n\u001b[31mred\u001b[0m\r\n>>> ');
    const snapshot = await r.markExited('py', { exitCode: 0, signal: null });
    expect(snapshot.history).toBe('>>> import os\n12#45\nred\n>>>');
    expect(snapshot.tail).toBe(snapshot.history);
    // The raw log still counted every byte the program wrote.
    expect(snapshot.totalBytes).toBe(
      Buffer.byteLength('>>> i\r>>> im\r>>> import os\r\n12345\u001b[3D#\r\n\u001b[31mred\u001b[0m\r\n>>> '),
    );
    expect(() => screen.feed('x')).toThrow(/disposed/);
  });

  it('disposes a real screen once when the registry is disposed', () => {
    const r = registry();
    const screen = new TerminalScreen();
    r.add({ id: 's', command: 'x', screen });
    r.dispose();
    expect(() => screen.feed('x')).toThrow(/disposed/);
  });
});

describe('session references', () => {
  it('takes the entry itself wherever it takes an id', async () => {
    const registry = new SessionRegistry();
    const entry = registry.add({ id: 's1', command: 'echo hi', cwd: '/tmp' });
    registry.markBackgrounded(entry);
    registry.append(entry, 'stdout', 'hi\n');
    expect(registry.drain(entry)).toMatchObject({ stdout: 'hi\n' });
    const finished = await registry.markExited(entry, { reason: 'exit', exitCode: 0, signal: null });
    expect(finished).toMatchObject({ id: 's1', status: 'completed', exitCode: 0 });
    expect(registry.remove(entry)).toBe(true);
    registry.dispose();
  });
});
