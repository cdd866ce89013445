// Process-driving tests that run on every OS: the children are the Node fixtures of
// @procmux/test-utils, started without a shell, so nothing here assumes bash or POSIX tools.
import type { ManagedRun } from '@procmux/core-types';
import { announcedPids, checkLeaksAfterAll, fixture, isAlive, trackPid, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { ProcessSupervisor, type SpawnOptions } from '../src/index.js';
import { cancelRunsAfterEach, recordingLogger, spawnCollecting } from './helpers.js';

const track = cancelRunsAfterEach();
const { logger } = recordingLogger();
const supervisor = new ProcessSupervisor({ logger, killGraceMs: 500 });

function spawn(options: SpawnOptions): Promise<{ run: ManagedRun; seen: () => string }> {
  return spawnCollecting(supervisor, track, options);
}

describe('on pipes, everywhere', () => {
  it('returns every line and the exit code of a program that prints and exits', async () => {
    const { run } = await spawn(fixture('lines', '3', '7'));
    const exit = await run.wait();
    expect(exit).toMatchObject({
      reason: 'exit',
      exitCode: 7,
      stdout: 'line 1\nline 2\nline 3\n',
      stdioMode: 'pipe',
    });
  });

  it('writes the input, closes stdin, and reads the answer', async () => {
    const { run } = await spawn({ ...fixture('answer'), input: 'procmux\n', stdin: 'closed' });
    const exit = await run.wait();
    expect(exit.exitCode).toBe(0);
    expect(exit.stdout).toBe('name? hello, procmux\n');
  });

  it('a program that gets EOF instead of an answer is not left hanging', async () => {
    const { run } = await spawn({ ...fixture('answer'), stdin: 'closed' });
    expect((await run.wait()).exitCode).toBe(3);
  });

  it('talks to a prompt loop over an open stdin', async () => {
    const { run, seen } = await spawn({ ...fixture('prompt-loop'), stdin: 'open' });
    await waitFor(() => seen().startsWith('> '), 30_000, 'the first prompt');
    run.stdin!.write('four\n');
    await waitFor(() => seen().includes('= 4\n> '), 30_000, 'the answer and the next prompt');
    run.stdin!.write('exit\n');
    const exit = await run.wait();
    expect(exit.exitCode).toBe(0);
    expect(exit.stdout).toBe('> = 4\n> bye\n');
  });

  it('keeps the last bytes of a flood, whole lines of it, and says it cut', async () => {
    const { run } = await spawn({ ...fixture('flood', '4000000'), maxCaptureBytes: 64 * 1024 });
    const exit = await run.wait();
    expect(exit.exitCode).toBe(0);
    expect(exit.truncated).toBe(true);
    expect(exit.stdout.length).toBe(64 * 1024);
    expect(exit.stdout.endsWith(`${'x'.repeat(99)}\n`)).toBe(true);
    expect(exit.stderr).toBe('done\n');
  });

  it('a cancel ends a program that ignores SIGTERM (after the grace on POSIX)', async () => {
    const { run, seen } = await spawn(fixture('ignore-term'));
    await waitFor(() => seen().includes('ready'), 30_000, 'the program to start');
    run.cancel();
    const exit = await run.wait();
    expect(exit.reason).toBe('manual-cancel');
    expect(isAlive(run.pid!)).toBe(false);
  });

  it('a cancel takes down the whole tree, the detached grandchild too', async () => {
    const { run, seen } = await spawn(fixture('tree'));
    await waitFor(() => seen().includes('ready'), 30_000, 'the tree to start');
    const pids = announcedPids(seen());
    expect([...pids.keys()].sort()).toEqual(['child', 'grandchild', 'root']);
    for (const pid of pids.values()) trackPid(pid);
    run.cancel();
    expect((await run.wait()).reason).toBe('manual-cancel');
    await waitFor(
      () => [...pids.values()].every((pid) => !isAlive(pid)),
      15_000,
      'every process of the tree to end',
    );
  });
});

describe('on a terminal, everywhere (a PTY on POSIX, ConPTY on Windows)', () => {
  it('a prompt loop answers what is typed, and the terminal echoes it', async () => {
    const { run, seen } = await spawn({ ...fixture('prompt-loop'), mode: 'pty' });
    expect(run.stdioMode).toBe('pty');
    await waitFor(() => seen().includes('> '), 30_000, 'the first prompt');
    run.stdin!.write('hello\r');
    await waitFor(() => seen().includes('= 5'), 30_000, 'the answer');
    expect(seen()).toContain('hello');
    run.stdin!.write('exit\r');
    expect((await run.wait()).exitCode).toBe(0);
  });

  it('a program on a terminal knows it is on one', async () => {
    const { run } = await spawn({
      file: process.execPath,
      args: ['-e', 'console.log("tty=" + process.stdout.isTTY)'],
      mode: 'pty',
    });
    const exit = await run.wait();
    expect(exit.exitCode).toBe(0);
    expect(exit.stdout).toContain('tty=true');
  });
});

checkLeaksAfterAll();
