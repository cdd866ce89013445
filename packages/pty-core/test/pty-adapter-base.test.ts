// The shared half of every PTY adapter, driven through a fake platform: what reaches the
// terminal, when wait() settles, what the force-settle timer does, what dispose() frees.
import { throwsWith } from '@procmux/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PtyAdapterBase, resolveKillTimings } from '../src/index.js';

class FakeAdapter extends PtyAdapterBase {
  readonly pid = 99;
  readonly backend = 'fake';
  readonly writes: (string | Uint8Array)[] = [];
  readonly resizes: [number, number][] = [];
  readonly events: string[] = [];
  hasExited = false;
  killTreeResult: Promise<unknown> = Promise.resolve();

  constructor(timings = resolveKillTimings({})) {
    super(timings);
  }
  print(text: string): void {
    this.output(text);
  }
  exit(code: number): void {
    this.hasExited = true;
    this.settle({ code, signal: null });
  }
  protected get exited(): boolean {
    return this.hasExited;
  }
  protected writeInput(data: string | Uint8Array): void {
    this.writes.push(data);
  }
  protected killGracefully(): void {
    this.events.push('graceful');
  }
  protected hangUpTerminal(): boolean {
    this.events.push('hang up');
    return true;
  }
  protected killTree(graceMs: number): Promise<unknown> {
    this.events.push(`tree ${graceMs}`);
    return this.killTreeResult;
  }
  protected resizeTerminal(cols: number, rows: number): void {
    this.resizes.push([cols, rows]);
  }
  protected release(): void {
    this.events.push('release');
  }
  protected override forceSettled(): void {
    this.events.push('force settled');
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('PtyAdapterBase', () => {
  it('is a pty adapter whose stderr never fires', () => {
    const pty = new FakeAdapter();
    expect(pty.stdioMode).toBe('pty');
    const heard: string[] = [];
    pty.onStderr((chunk) => heard.push(chunk));
    pty.print('x');
    expect(heard).toEqual([]);
  });

  it('hangs a live terminal up; not once the program has exited, nor once disposed', async () => {
    const pty = new FakeAdapter();
    await expect(pty.hangUp()).resolves.toBe(true);
    expect(pty.events).toEqual(['hang up']);
    pty.exit(0);
    await expect(pty.hangUp()).resolves.toBe(false);
    const disposed = new FakeAdapter();
    disposed.dispose();
    await expect(disposed.hangUp()).resolves.toBe(false);
    expect(disposed.events).toEqual(['release']);
  });

  it('writes checked input, sends EOT on close, and tracks bracketed paste across chunks', () => {
    const pty = new FakeAdapter();
    pty.stdin.write('ls\r');
    pty.stdin.write(new Uint8Array([1]));
    pty.stdin.close();
    expect(pty.writes).toEqual(['ls\r', new Uint8Array([1]), '\x04']);
    expect(throwsWith(() => pty.stdin.write(42 as unknown as string), 'ERR_INVALID_OPTION').message).toBe(
      'data must be a string or a Uint8Array (got 42)',
    );
    expect(pty.stdin.bracketedPasteEnabled).toBe(false);
    pty.print('\x1b[?20');
    pty.print('04h');
    expect(pty.stdin.bracketedPasteEnabled).toBe(true);
  });

  it('keeps output printed before anyone listens, and drops empty chunks', async () => {
    const pty = new FakeAdapter();
    pty.print('early');
    pty.print('');
    const heard: string[] = [];
    pty.onStdout((chunk) => heard.push(chunk));
    pty.print('late');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.join('')).toBe('earlylate');
  });

  it('settles once: the first exit counts', async () => {
    const pty = new FakeAdapter();
    pty.exit(3);
    pty.exit(4);
    expect(await pty.wait()).toEqual({ code: 3, signal: null });
  });

  it('kill: graceful asks politely, force runs the tree kill with the grace, a bad mode is refused', async () => {
    const pty = new FakeAdapter(resolveKillTimings({ killGraceMs: 10, forceKillSettleMs: 60_000 }));
    await pty.kill('graceful');
    await pty.kill();
    expect(pty.events).toEqual(['graceful', 'tree 10']);
    await expect(pty.kill('hard' as never)).rejects.toThrow(
      /^mode must be one of 'graceful', 'force' \(got "hard"\)/,
    );
    pty.exit(0);
    await pty.kill('force');
    expect(pty.events).toEqual(['graceful', 'tree 10']);
  });

  it('settles as SIGKILL when no exit comes forceKillSettleMs after the tree kill, even if it failed', async () => {
    vi.useFakeTimers();
    const pty = new FakeAdapter(resolveKillTimings({ forceKillSettleMs: 50 }));
    pty.killTreeResult = Promise.reject(new Error('taskkill failed'));
    await expect(pty.kill('force')).rejects.toThrow('taskkill failed');
    vi.advanceTimersByTime(49);
    expect(pty.events).not.toContain('force settled');
    vi.advanceTimersByTime(1);
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(pty.events).toContain('force settled');
  });

  it('reports the real exit when it comes in time, and arms no timer after dispose', async () => {
    vi.useFakeTimers();
    const pty = new FakeAdapter(resolveKillTimings({ forceKillSettleMs: 50 }));
    await pty.kill('force');
    pty.exit(1);
    vi.advanceTimersByTime(100);
    expect(await pty.wait()).toEqual({ code: 1, signal: null });
    expect(pty.events).not.toContain('force settled');
    const disposed = new FakeAdapter(resolveKillTimings({ forceKillSettleMs: 50 }));
    disposed.dispose();
    await disposed.kill('force');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resizes with checked sizes, and not once disposed or exited', () => {
    const pty = new FakeAdapter();
    pty.resize(100, 40);
    expect(throwsWith(() => pty.resize(0, 40), 'ERR_INVALID_OPTION').message).toBe(
      'cols must be an integer from 1 to 500 (got 0)',
    );
    expect(() => pty.resize(100, 1.5)).toThrow('rows must be an integer from 1 to 200 (got 1.5)');
    pty.exit(0);
    pty.resize(80, 24);
    const gone = new FakeAdapter();
    gone.dispose();
    gone.resize(80, 24);
    expect(pty.resizes).toEqual([[100, 40]]);
    expect(gone.resizes).toEqual([]);
  });

  it('dispose releases once, stops output and clears a pending force timer', async () => {
    vi.useFakeTimers();
    const pty = new FakeAdapter(resolveKillTimings({ forceKillSettleMs: 50 }));
    const heard: string[] = [];
    pty.onStdout((chunk) => heard.push(chunk));
    await pty.kill('force');
    expect(vi.getTimerCount()).toBe(1);
    pty.dispose();
    pty.dispose();
    expect(vi.getTimerCount()).toBe(0);
    pty.print('after');
    expect(heard).toEqual([]);
    expect(pty.events.filter((e) => e === 'release')).toHaveLength(1);
    pty.exit(5);
    expect(await pty.wait()).toEqual({ code: 5, signal: null });
  });
});
