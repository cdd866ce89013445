import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcmuxError, TREE_MARKER_ENV } from '@procmux/core-types';
import {
  checkLeaksAfterAll,
  descendantsOf,
  isAlive,
  processTable,
  rejectionOf,
  testTmpdir,
  waitFor,
} from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ChildAdapter, type ChildAdapterOptions } from '../src/index.js';

const started: ChildAdapter[] = [];
const scratch = mkdtempSync(join(testTmpdir(), 'procmux-child-'));

async function start(options: ChildAdapterOptions) {
  const adapter = await ChildAdapter.create(options);
  started.push(adapter);
  const out = { stdout: '', stderr: '', stdoutChunks: [] as string[] };
  adapter.onStdout((chunk) => {
    out.stdout += chunk;
    out.stdoutChunks.push(chunk);
  });
  adapter.onStderr((chunk) => {
    out.stderr += chunk;
  });
  return { adapter, out };
}

const rejection = rejectionOf;

afterEach(async () => {
  for (const adapter of started.splice(0)) {
    await adapter.kill('force').catch(() => {});
    adapter.dispose();
  }
});

checkLeaksAfterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('ChildAdapter exits', () => {
  it.each([0, 3, 42])('reports exit code %i', async (code) => {
    const { adapter } = await start({ command: `exit ${code}` });
    expect(adapter.stdioMode).toBe('pipe');
    expect(typeof adapter.pid).toBe('number');
    await expect(adapter.wait()).resolves.toEqual({ code, signal: null });
  });

  it('reports death by SIGTERM after a graceful kill', async () => {
    const { adapter } = await start({ file: 'sleep', args: ['30'] });
    await adapter.kill('graceful');
    await expect(adapter.wait()).resolves.toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('reports death by SIGKILL', async () => {
    const { adapter } = await start({ command: 'kill -KILL $$' });
    await expect(adapter.wait()).resolves.toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('refuses an unknown kill mode', async () => {
    const { adapter } = await start({ command: 'exit 0' });
    const error = await rejection(adapter.kill('gentle' as never));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    await adapter.wait();
  });

  it('ignores a graceful kill after the exit', async () => {
    const { adapter } = await start({ command: 'exit 0' });
    await adapter.wait();
    await expect(adapter.kill('graceful')).resolves.toBeUndefined();
  });
});

describe('ChildAdapter output', () => {
  it('keeps stdout and stderr apart', async () => {
    const { adapter, out } = await start({ command: 'echo out; echo err >&2; echo out2' });
    await adapter.wait();
    expect(out.stdout).toBe('out\nout2\n');
    expect(out.stderr).toBe('err\n');
  });

  it('delivers output written before the first listener attached', async () => {
    const adapter = await ChildAdapter.create({ command: 'echo early; echo late >&2' });
    started.push(adapter);
    await adapter.wait();
    let stdout = '';
    let stderr = '';
    adapter.onStdout((chunk) => {
      stdout += chunk;
    });
    adapter.onStderr((chunk) => {
      stderr += chunk;
    });
    // Held output is handed over on a microtask, after on() has returned its disposer.
    await Promise.resolve();
    expect(stdout).toBe('early\n');
    expect(stderr).toBe('late\n');
  });

  it('never splits a character across chunks', async () => {
    // The three bytes of '€' arrive in two writes, 100 ms apart.
    const { adapter, out } = await start({ command: "printf '\\342'; sleep 0.1; printf '\\202\\254 ok'" });
    await adapter.wait();
    expect(out.stdout).toBe('€ ok');
    expect(out.stdoutChunks.join('|')).not.toContain('\ufffd');
  });

  it('stops delivering after a listener is disposed', async () => {
    const adapter = await ChildAdapter.create({ command: 'echo one; sleep 0.2; echo two', stdin: 'closed' });
    started.push(adapter);
    let seen = '';
    const stop = adapter.onStdout((chunk) => {
      seen += chunk;
      stop();
    });
    await adapter.wait();
    expect(seen).toBe('one\n');
  });

  it('resolves wait promptly when a backgrounded grandchild holds the pipes', async () => {
    const { adapter, out } = await start({ command: 'sleep 30 & echo hi' });
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe('hi\n');
    // Its parent shell is gone, so the sleeper is found by its process group, not its parent.
    const sleeper = processTable().filter((p) => p.pgid === adapter.pid && p.command.startsWith('sleep 30'));
    expect(sleeper).toHaveLength(1);
    await adapter.kill('force');
    await waitFor(() => !isAlive(sleeper[0]!.pid), 10_000, 'the backgrounded sleep to die');
  });
});

describe('ChildAdapter stdin', () => {
  it('writes input and then EOF by default', async () => {
    const { adapter, out } = await start({ file: 'cat', input: 'hello\nworld\n' });
    expect(adapter.stdin).toBeUndefined();
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe('hello\nworld\n');
  });

  it('gives EOF at once with no input', async () => {
    const { adapter, out } = await start({ command: 'wc -c' });
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout.trim()).toBe('0');
  });

  it('keeps stdin open for the caller when asked', async () => {
    const { adapter, out } = await start({
      file: 'cat',
      stdin: 'open',
      input: new TextEncoder().encode('first\n'),
    });
    await waitFor(() => out.stdout === 'first\n', 10_000, 'the echo of the input');
    adapter.stdin!.write('second\n');
    await waitFor(() => out.stdout === 'first\nsecond\n', 10_000, 'the echo of the write');
    adapter.stdin!.close();
    adapter.stdin!.close();
    adapter.stdin!.write('ignored after close\n');
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe('first\nsecond\n');
  });

  it('does not crash when the child stops reading before the input is written', async () => {
    const { adapter } = await start({ command: 'exit 0', input: 'x'.repeat(1 << 20) });
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
  });
});

describe('ChildAdapter environment and cwd', () => {
  it('runs in cwd with the given environment plus a tree marker', async () => {
    const { adapter, out } = await start({
      command: `pwd; echo "$GREETING"; echo "$${TREE_MARKER_ENV}"`,
      cwd: scratch,
      env: { PATH: process.env.PATH, GREETING: 'hello', UNSET: undefined },
    });
    await adapter.wait();
    const [cwd, greeting, marker] = out.stdout.trim().split('\n');
    expect(cwd).toBe(scratch);
    expect(greeting).toBe('hello');
    expect(marker?.startsWith(`${process.pid}-`)).toBe(true);
  });

  it('inherits this process environment when env is omitted', async () => {
    process.env.PROCMUX_CHILD_TEST = 'inherited';
    try {
      const { adapter, out } = await start({ command: 'echo "$PROCMUX_CHILD_TEST"' });
      await adapter.wait();
      expect(out.stdout).toBe('inherited\n');
    } finally {
      delete process.env.PROCMUX_CHILD_TEST;
    }
  });
});

describe('ChildAdapter tree kill', () => {
  it('kills the child and every grandchild', async () => {
    const { adapter } = await start({ command: 'sleep 30 & sleep 30 & bash -c "sleep 30; true" & wait' });
    const pid = adapter.pid!;
    const tree = (await waitFor(
      () => {
        const found = descendantsOf(pid).filter((p) => p.command.startsWith('sleep'));
        return found.length === 3 ? found : undefined;
      },
      10_000,
      'three sleeping grandchildren',
    ))!;
    await adapter.kill('force');
    const result = await adapter.wait();
    expect(result.code).toBeNull();
    expect(result.signal).not.toBeNull();
    for (const info of tree) expect(isAlive(info.pid)).toBe(false);
  });

  it('rejects with ERR_PROCESS_STATE when the tree kill reports survivors', async () => {
    const { adapter } = await start({
      command: 'exit 0',
      killProcessTree: async (pid) => ({ signalled: [pid], survivors: [pid] }),
    });
    await adapter.wait();
    const error = await rejection(adapter.kill('force'));
    expect(isProcmuxError(error, 'ERR_PROCESS_STATE')).toBe(true);
  });

  it('passes its grace and the child tree marker to the tree kill', async () => {
    const calls: unknown[] = [];
    const { adapter, out } = await start({
      command: `echo "$${TREE_MARKER_ENV}"`,
      killGraceMs: 0,
      killProcessTree: async (pid, options) => {
        calls.push(options);
        return { signalled: [pid], survivors: [] };
      },
    });
    await adapter.wait();
    await adapter.kill();
    expect(out.stdout).toMatch(new RegExp(`^${process.pid}-`));
    expect(calls).toEqual([{ graceMs: 0, marker: out.stdout.trim() }]);
  });
});

describe('ChildAdapter spawn errors', () => {
  it('names a missing program', async () => {
    const error = await rejection(ChildAdapter.create({ file: 'procmux-no-such-program' }));
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toContain('command not found: "procmux-no-such-program"');
  });

  it('names a missing shell', async () => {
    const error = await rejection(ChildAdapter.create({ command: 'echo hi', shell: '/nonexistent/sh' }));
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toContain('/nonexistent/sh');
  });

  it('names a file that is not executable', async () => {
    const file = join(scratch, 'not-executable');
    writeFileSync(file, 'echo hi\n', { mode: 0o644 });
    const error = await rejection(ChildAdapter.create({ file }));
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toContain('not executable');
  });

  it('names the system error for other spawn failures', async () => {
    const error = await rejection(ChildAdapter.create({ file: '/etc/passwd/inside-a-file' }));
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toBe('could not start "/etc/passwd/inside-a-file" (ENOTDIR)');
  });

  it('names a missing cwd', async () => {
    const cwd = join(scratch, 'missing');
    const error = await rejection(ChildAdapter.create({ command: 'echo hi', cwd }));
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toBe(`cwd does not exist: ${JSON.stringify(cwd)}`);
  });

  it('refuses a cwd that is a file', async () => {
    const cwd = join(scratch, 'a-file');
    writeFileSync(cwd, '');
    const error = await rejection(ChildAdapter.create({ command: 'echo hi', cwd }));
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toContain('not a directory');
  });
});

describe('ChildAdapter options', () => {
  it.each([
    [{}, 'command or file'],
    [{ command: 'echo', file: 'echo' }, 'command or file'],
    [{ command: '   ' }, 'command'],
    [{ command: 'echo \0' }, 'command'],
    [{ file: '' }, 'file'],
    [{ command: 'echo', args: ['x'] }, 'args'],
    [{ file: 'echo', args: [1] }, 'args'],
    [{ file: 'echo', shell: 'bash' }, 'shell'],
    [{ command: 'echo', stdin: 'half' }, 'stdin'],
    [{ command: 'echo', input: 42 }, 'input'],
    [{ command: 'echo', env: 'PATH=/bin' }, 'env'],
    [{ command: 'echo', env: { PATH: 1 } }, 'env.PATH'],
    [{ command: 'echo', env: { 'A=B': 'x' } }, 'env'],
    [{ command: 'echo', env: { A: 'x\0y' } }, 'env.A'],
    [{ command: 'echo', cwd: '' }, 'cwd'],
    [{ command: 'echo', killGraceMs: -1 }, 'killGraceMs'],
    [{ command: 'echo', drainTimeoutMs: 1.5 }, 'drainTimeoutMs'],
    [{ command: 'echo', platform: 'windows' }, 'platform'],
  ])('rejects %j naming %s', async (options, option) => {
    const error = await rejection(ChildAdapter.create(options as ChildAdapterOptions));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message.startsWith(`${option} must be`)).toBe(true);
  });

  it('never shows an environment value in an error', async () => {
    const error = await rejection(
      ChildAdapter.create({ command: 'echo', env: { SECRET: 12345 } } as unknown as ChildAdapterOptions),
    );
    expect((error as Error).message).not.toContain('12345');
  });
});
