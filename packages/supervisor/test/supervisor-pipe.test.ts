import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isProcmuxError, type KillPlatformModule, type ManagedRun } from '@procmux/core-types';
import { killProcessTree } from '@procmux/kill-posix';
import { checkLeaksAfterAll, isAlive, processTable, testTmpdir, waitFor } from '@procmux/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { ChildAdapter, loadPlatform, ProcessSupervisor, type SpawnOptions } from '../src/index.js';
import { cancelRunsAfterEach, recordingLogger, rejection } from './helpers.js';

const track = cancelRunsAfterEach();
const scratch = mkdtempSync(join(testTmpdir(), 'procmux-supervisor-'));

function supervisor() {
  const { logger, warnings } = recordingLogger();
  return { supervisor: new ProcessSupervisor({ logger }), warnings };
}

async function spawn(sup: ProcessSupervisor, options: SpawnOptions): Promise<ManagedRun> {
  return track(await sup.spawn(options));
}

checkLeaksAfterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pipe runs', () => {
  it('runs echo and reports its output, exit and mode', async () => {
    const { supervisor: sup } = supervisor();
    const before = Date.now();
    const run = await spawn(sup, { command: 'echo hello' });
    expect(run.stdioMode).toBe('pipe');
    expect(run.runId).toMatch(/^[0-9a-f]{8}$/);
    expect(typeof run.pid).toBe('number');
    expect(run.startedAt).toBeGreaterThanOrEqual(before);
    expect(run.stdin).toBeUndefined();
    expect(run.resize).toBeUndefined();
    const exit = await run.wait();
    expect(exit).toMatchObject({
      reason: 'exit',
      exitCode: 0,
      signal: null,
      stdout: 'hello\n',
      stderr: '',
      truncated: false,
      timedOut: false,
      noOutputTimedOut: false,
      stdioMode: 'pipe',
    });
    expect(exit.durationMs).toBeGreaterThanOrEqual(0);
    expect(run.wait()).toBe(run.wait());
  });

  it('reports a failing command with its stderr', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'echo oops >&2; exit 3' });
    await expect(run.wait()).resolves.toMatchObject({
      reason: 'exit',
      exitCode: 3,
      stderr: 'oops\n',
      stdout: '',
    });
  });

  it('reports death by a signal', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'kill -TERM $$' });
    await expect(run.wait()).resolves.toMatchObject({ reason: 'signal', exitCode: null, signal: 'SIGTERM' });
  });

  it('runs a file with arguments and no shell', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { file: 'printf', args: ['%s|', 'a b', '$HOME'] });
    await expect(run.wait()).resolves.toMatchObject({ exitCode: 0, stdout: 'a b|$HOME|' });
  });

  it('passes chunks to the callbacks and survives one that throws', async () => {
    const { supervisor: sup, warnings } = supervisor();
    let stdout = '';
    const run = await spawn(sup, {
      command: 'echo out; echo err >&2',
      onStdout: (chunk) => {
        stdout += chunk;
      },
      onStderr: () => {
        throw new Error('callback broke');
      },
    });
    const exit = await run.wait();
    expect(stdout).toBe('out\n');
    expect(exit.stderr).toBe('err\n');
    expect(warnings).toContainEqual({
      message: 'procmux: the stderr callback threw',
      fields: { runId: run.runId, error: 'callback broke' },
    });
  });

  it('goes on when the logger told of a throwing callback throws too; the warning reaches the console', async () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const sup = new ProcessSupervisor({
        logger: {
          warn: () => {
            throw new Error('the log sink is full');
          },
        },
      });
      const run = await spawn(sup, {
        command: 'echo err >&2; echo out',
        onStderr: () => {
          throw new Error('callback broke');
        },
      });
      await expect(run.wait()).resolves.toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'out\n' });
      expect(consoleWarn.mock.calls).toContainEqual([
        'procmux: the stderr callback threw',
        { runId: run.runId, error: 'callback broke', loggerThrew: 'the log sink is full' },
      ]);
    } finally {
      consoleWarn.mockRestore();
    }
  });

  it("passes an ASCII chunk's own bytes along with it, and no bytes with other text", async () => {
    const { supervisor: sup } = supervisor();
    const seen = { stdout: [] as (string | undefined)[][], stderr: [] as (string | undefined)[][] };
    const record = (stream: 'stdout' | 'stderr') => (chunk: string, bytes?: Uint8Array) =>
      seen[stream].push([chunk, bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8')]);
    // Each stream is its own pipe, so each write is its own chunk; stderr's is not ASCII.
    const run = await spawn(sup, {
      command: "printf 'plain\\n'; printf 'caf\\303\\251\\n' >&2",
      onStdout: record('stdout'),
      onStderr: record('stderr'),
    });
    await run.wait();
    expect(seen).toEqual({ stdout: [['plain\n', 'plain\n']], stderr: [['café\n', undefined]] });
  });

  it('writes input, then EOF', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { file: 'cat', input: 'fed\n' });
    await expect(run.wait()).resolves.toMatchObject({ exitCode: 0, stdout: 'fed\n' });
  });

  it('leaves stdin open when asked', async () => {
    const { supervisor: sup } = supervisor();
    let seen = '';
    const run = await spawn(sup, {
      file: 'cat',
      stdin: 'open',
      onStdout: (chunk) => {
        seen += chunk;
      },
    });
    run.stdin!.write('typed\n');
    await waitFor(() => seen === 'typed\n', 10_000, 'the echo');
    run.stdin!.close();
    await expect(run.wait()).resolves.toMatchObject({ exitCode: 0, stdout: 'typed\n' });
  });

  it('keeps the last maxCaptureBytes bytes without splitting a character', async () => {
    const { supervisor: sup } = supervisor();
    let streamed = '';
    const run = await spawn(sup, {
      command: "printf 'abcdef'; printf '€€' >&2",
      maxCaptureBytes: 4,
      onStdout: (chunk) => {
        streamed += chunk;
      },
    });
    const exit = await run.wait();
    expect(exit.stdout).toBe('cdef');
    // 4 bytes of '€€' (6 bytes) would start inside the first '€': that one goes whole.
    expect(exit.stderr).toBe('€');
    expect(exit.truncated).toBe(true);
    expect(streamed).toBe('abcdef');
  });

  it('captures nothing with maxCaptureBytes 0', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'echo hidden', maxCaptureBytes: 0 });
    await expect(run.wait()).resolves.toMatchObject({ stdout: '', truncated: true });
  });

  it('reports a missing program and a missing cwd as spawn errors', async () => {
    const { supervisor: sup } = supervisor();
    const missingFile = await rejection(sup.spawn({ file: 'procmux-no-such-program' }));
    expect(isProcmuxError(missingFile, 'ERR_PROCESS_SPAWN')).toBe(true);
    // The failure is the spawn's rejection: no run was created that could end with it.
    expect(sup.activeRuns()).toHaveLength(0);
    const missingCwd = await rejection(sup.spawn({ command: 'true', cwd: join(scratch, 'nope') }));
    expect(isProcmuxError(missingCwd, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((missingCwd as Error).message).toContain('cwd does not exist');
  });

  it('runs in the given cwd and environment', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, {
      command: 'pwd; echo "$ONLY_HERE"',
      cwd: scratch,
      env: { PATH: process.env.PATH, ONLY_HERE: 'yes' },
    });
    await expect(run.wait()).resolves.toMatchObject({ stdout: `${scratch}\nyes\n` });
  });
});

describe('timeouts', () => {
  it('kills a sleep that passes the overall limit', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'sleep 30', timeoutMs: 300 });
    const exit = await run.wait();
    expect(exit).toMatchObject({
      reason: 'overall-timeout',
      timedOut: true,
      noOutputTimedOut: false,
      exitCode: null,
    });
    expect(exit.signal).not.toBeNull();
    expect(isAlive(run.pid!)).toBe(false);
  });

  it('kills a program that prints and then goes silent past the idle limit', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, {
      command: 'echo started; sleep 30',
      noOutputTimeoutMs: 400,
      timeoutMs: 60_000,
    });
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'no-output-timeout', timedOut: true, noOutputTimedOut: true });
    expect(exit.stdout).toBe('started\n');
    expect(processTable().filter((p) => p.pgid === run.pid)).toEqual([]);
  });

  it('lets a program that keeps printing inside the idle limit finish', async () => {
    const { supervisor: sup } = supervisor();
    // 25 lines 0.1 s apart: 2.5 s in all, longer than the 1.5 s idle limit it never reaches.
    const run = await spawn(sup, {
      command: 'for i in $(seq 1 25); do echo $i; sleep 0.1; done',
      noOutputTimeoutMs: 1_500,
    });
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'exit', exitCode: 0, timedOut: false, noOutputTimedOut: false });
    // All 25 lines and a plain exit: an idle timer that output did not restart would have
    // ended it after 1.5 s with reason 'no-output-timeout'.
    expect(exit.stdout.trim().split('\n')).toHaveLength(25);
  });

  it('clears its timers when the run settles', async () => {
    const { supervisor: sup } = supervisor();
    // The run's own two timers, told apart by their delays, not a count of every timer in the
    // process (which anything else running may change).
    const set = vi.spyOn(globalThis, 'setTimeout');
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    try {
      const run = await spawn(sup, { command: 'echo quick', timeoutMs: 61_111, noOutputTimeoutMs: 62_222 });
      const ours = set.mock.calls
        .map((call, i) => ({ delay: call[1], handle: set.mock.results[i]?.value as unknown }))
        .filter(({ delay }) => delay === 61_111 || delay === 62_222);
      expect(ours.map(({ delay }) => delay).sort()).toEqual([61_111, 62_222]);
      const cleared = () => ours.filter(({ handle }) => clear.mock.calls.some(([h]) => h === handle)).length;
      expect(cleared()).toBe(0);
      await expect(run.wait()).resolves.toMatchObject({ reason: 'exit', timedOut: false });
      expect(cleared()).toBe(2);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
  });
});

describe('cancellation', () => {
  it('cancels a run through its handle and through the supervisor', async () => {
    const { supervisor: sup } = supervisor();
    const first = await spawn(sup, { command: 'sleep 30' });
    const second = await spawn(sup, { command: 'sleep 30' });
    expect(sup.getActive(first.runId)).toBe(first);
    expect(sup.activeRuns()).toHaveLength(2);
    first.cancel();
    sup.cancel(second.runId, 'overall-timeout');
    await expect(first.wait()).resolves.toMatchObject({ reason: 'manual-cancel', timedOut: false });
    await expect(second.wait()).resolves.toMatchObject({ reason: 'overall-timeout', timedOut: true });
    expect(sup.getActive(first.runId)).toBeUndefined();
    expect(sup.activeRuns()).toEqual([]);
  });

  it('gives the tree its kill grace, so a program can clean up', async () => {
    const { logger } = recordingLogger();
    const sup = new ProcessSupervisor({ logger, killGraceMs: 10_000 });
    let seen = '';
    const run = await spawn(sup, {
      command: "trap 'echo cleaned up; exit 0' TERM; echo ready; sleep 30 & wait",
      onStdout: (chunk) => {
        seen += chunk;
      },
    });
    await waitFor(() => seen.includes('ready'), 10_000, 'the trap to be set');
    run.cancel();
    await expect(run.wait()).resolves.toMatchObject({
      reason: 'manual-cancel',
      exitCode: 0,
      stdout: 'ready\ncleaned up\n',
    });
  });

  it('keeps the first forced reason', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'sleep 30' });
    run.cancel('no-output-timeout');
    run.cancel('manual-cancel');
    await expect(run.wait()).resolves.toMatchObject({ reason: 'no-output-timeout', noOutputTimedOut: true });
  });

  it('cancels every run with cancelAll', async () => {
    const { supervisor: sup } = supervisor();
    const all = await Promise.all([1, 2, 3].map(() => spawn(sup, { command: 'sleep 30' })));
    sup.cancelAll();
    for (const run of all) await expect(run.wait()).resolves.toMatchObject({ reason: 'manual-cancel' });
  });

  it('logs and ignores a cancel of an unknown or finished run', async () => {
    const { supervisor: sup, warnings } = supervisor();
    const run = await spawn(sup, { command: 'true' });
    await run.wait();
    sup.cancel(run.runId);
    run.cancel();
    expect(warnings).toEqual([
      {
        message: 'procmux: cancel of an unknown run ignored (it may have finished already)',
        fields: { runId: run.runId },
      },
    ]);
    await expect(run.wait()).resolves.toMatchObject({ reason: 'exit' });
  });

  it('refuses an unknown reason', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'sleep 30' });
    expect(() => run.cancel('bored' as never)).toThrowError(/reason must be one of/);
    // No run ends for its spawn failing (spawn() rejects first), so that is no reason either.
    expect(() => run.cancel('spawn-error' as never)).toThrowError(
      /reason must be one of 'exit', 'signal', 'overall-timeout', 'no-output-timeout', 'manual-cancel'/,
    );
  });

  it('cancels the run when the signal aborts after the spawn', async () => {
    const { supervisor: sup } = supervisor();
    const controller = new AbortController();
    const run = await spawn(sup, { command: 'sleep 30', signal: controller.signal });
    controller.abort();
    await expect(run.wait()).resolves.toMatchObject({ reason: 'manual-cancel' });
  });

  it('rejects at once, starting nothing, when the signal is already aborted', async () => {
    const { supervisor: sup } = supervisor();
    const error = await rejection(sup.spawn({ command: 'sleep 30', signal: AbortSignal.abort() }));
    expect((error as Error).name).toBe('AbortError');
  });

  it('logs a failed kill and retries it on the next cancel', async () => {
    const { logger, warnings } = recordingLogger();
    let failures = 1;
    const kill: KillPlatformModule = {
      killProcessTree: async (pid, options) => {
        if (failures-- > 0) throw new Error('kill refused');
        return killProcessTree(pid, options);
      },
    };
    const real = loadPlatform('linux');
    const sup = new ProcessSupervisor({
      logger,
      loadPlatform: () => ({ platform: 'linux', loadPty: real.loadPty, loadKill: async () => kill }),
    });
    const run = await spawn(sup, { command: 'sleep 30' });
    run.cancel();
    await waitFor(() => warnings.length === 1, 10_000, 'the kill failure warning');
    expect(warnings[0]).toMatchObject({
      message: 'procmux: force kill failed',
      fields: { error: 'kill refused' },
    });
    run.cancel();
    await expect(run.wait()).resolves.toMatchObject({ reason: 'manual-cancel' });
  });
});

describe('adapter factories', () => {
  it('supervises an adapter a host started, applying input and timeouts', async () => {
    const { supervisor: sup } = supervisor();
    let factorySignal: AbortSignal | undefined;
    const run = await spawn(sup, {
      command: 'cat (in a host sandbox)',
      stdin: 'closed',
      input: 'from the supervisor\n',
      adapterFactory: (signal) => {
        factorySignal = signal;
        return ChildAdapter.create({ file: 'cat', stdin: 'open' });
      },
    });
    expect(factorySignal).toBeInstanceOf(AbortSignal);
    await expect(run.wait()).resolves.toMatchObject({ exitCode: 0, stdout: 'from the supervisor\n' });
  });

  it('keeps a factory adapter stdin open by default and times it out', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, {
      adapterFactory: () => ChildAdapter.create({ file: 'cat', stdin: 'open' }),
      noOutputTimeoutMs: 300,
    });
    expect(run.stdin).toBeDefined();
    await expect(run.wait()).resolves.toMatchObject({ reason: 'no-output-timeout' });
  });

  it('refuses spawn options only built-in adapters understand', async () => {
    const { supervisor: sup } = supervisor();
    const error = await rejection(
      sup.spawn({ adapterFactory: () => ChildAdapter.create({ command: 'true' }), cwd: scratch }),
    );
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toMatch(/^cwd must be left out with adapterFactory/);
  });

  it('refuses input for a factory adapter without stdin, and kills that adapter', async () => {
    const { supervisor: sup } = supervisor();
    let created: ChildAdapter | undefined;
    const error = await rejection(
      sup.spawn({
        input: 'would be lost',
        adapterFactory: async () => {
          created = await ChildAdapter.create({ command: 'sleep 30', stdin: 'closed' });
          return created;
        },
      }),
    );
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toMatch(/^input must be given only when the adapter has a stdin/);
    await expect(created!.wait()).resolves.toMatchObject({ code: null });
  });

  it('settles even when a host adapter fails to dispose', async () => {
    const { supervisor: sup, warnings } = supervisor();
    const run = await spawn(sup, {
      adapterFactory: async () => {
        const adapter = await ChildAdapter.create({ command: 'echo hosted' });
        return Object.assign(Object.create(adapter) as ChildAdapter, {
          dispose() {
            adapter.dispose();
            throw new Error('handle already closed');
          },
        });
      },
    });
    await expect(run.wait()).resolves.toMatchObject({ stdout: 'hosted\n' });
    expect(sup.getActive(run.runId)).toBeUndefined();
    expect(warnings).toContainEqual({
      message: 'procmux: disposing the adapter failed',
      fields: { runId: run.runId, error: 'handle already closed' },
    });
  });

  it('refuses a factory that does not resolve to an adapter', async () => {
    const { supervisor: sup } = supervisor();
    const error = await rejection(sup.spawn({ adapterFactory: async () => ({ pid: 1 }) as never }));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
  });
});

describe('platform packages and defaults', () => {
  it('names a missing kill package at spawn, not at construction', async () => {
    const { logger } = recordingLogger();
    const sup = new ProcessSupervisor({
      logger,
      loadPlatform: (platform) =>
        loadPlatform(platform, async (specifier) => {
          throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
            code: 'ERR_MODULE_NOT_FOUND',
          });
        }),
    });
    const error = await rejection(sup.spawn({ command: 'echo never' }));
    expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((error as Error).message).toContain('@procmux/kill-posix');
  });

  it('warns on the console when no logger is given', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      new ProcessSupervisor().cancel('no-such-run');
      expect(spy).toHaveBeenCalledWith(
        'procmux: cancel of an unknown run ignored (it may have finished already)',
        { runId: 'no-such-run' },
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('runs with every option left at its default', async () => {
    const sup = new ProcessSupervisor();
    const run = await spawn(sup, { command: 'echo default' });
    await expect(run.wait()).resolves.toMatchObject({ stdout: 'default\n' });
  });
});

describe('spawn options', () => {
  it.each([
    [{ command: 'true', mode: 'tty' }, 'mode'],
    [{ command: 'true', ptyFallback: 'maybe' }, 'ptyFallback'],
    [{ command: 'true', cols: 0 }, 'cols'],
    [{ command: 'true', rows: 201 }, 'rows'],
    [{ command: 'true', term: 'xterm 256' }, 'term'],
    [{ command: 'true', stdin: 'shut' }, 'stdin'],
    [{ command: 'true', input: {} }, 'input'],
    [{ command: 'true', timeoutMs: 0 }, 'timeoutMs'],
    [{ command: 'true', noOutputTimeoutMs: 2 ** 31 }, 'noOutputTimeoutMs'],
    [{ command: 'true', onStdout: 'print' }, 'onStdout'],
    [{ command: 'true', onStderr: 1 }, 'onStderr'],
    [{ command: 'true', signal: { aborted: false } }, 'signal'],
    [{ command: 'true', maxCaptureBytes: -1 }, 'maxCaptureBytes'],
    [{ command: 'true', screen: {} }, 'screen'],
    [{ command: 'true', adapterFactory: 'sandbox' }, 'adapterFactory'],
    [{ command: 'true', env: [] }, 'env'],
    [{ file: 'true', shell: 'bash' }, 'shell'],
    [{}, 'command or file'],
  ])('rejects %j naming %s', async (options, option) => {
    const { supervisor: sup } = supervisor();
    const error = await rejection(sup.spawn(options as SpawnOptions));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message.startsWith(`${option} must be`)).toBe(true);
  });

  it('refuses options that are not an object', async () => {
    const { supervisor: sup } = supervisor();
    const error = await rejection(sup.spawn(null as unknown as SpawnOptions));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
  });

  it('refuses bad constructor options', () => {
    expect(() => new ProcessSupervisor({ logger: {} as never })).toThrowError(/logger must be/);
    expect(() => new ProcessSupervisor({ killGraceMs: 60_001 })).toThrowError(/killGraceMs must be/);
    expect(() => new ProcessSupervisor({ ptyFactory: 'node-pty' as never })).toThrowError(
      /ptyFactory must be/,
    );
  });
});
