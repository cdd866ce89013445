import { isProcmuxError, type ManagedRun, ProcmuxError } from '@procmux/core-types';
import { createPtyAdapter } from '@procmux/pty-posix';
import { TerminalScreen } from '@procmux/screen';
import { checkLeaksAfterAll, processTable, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadPlatform,
  ProcessSupervisor,
  type ProcessSupervisorOptions,
  type SpawnOptions,
} from '../src/index.js';
import { cancelRunsAfterEach, recordingLogger, rejection } from './helpers.js';

const track = cancelRunsAfterEach();
const screens: TerminalScreen[] = [];

function supervisor(options: Omit<ProcessSupervisorOptions, 'logger'> = {}) {
  const { logger, warnings } = recordingLogger();
  return { supervisor: new ProcessSupervisor({ logger, ...options }), warnings };
}

async function spawn(sup: ProcessSupervisor, options: SpawnOptions): Promise<ManagedRun> {
  return track(await sup.spawn(options));
}

function screen(cols = 80, rows = 24): TerminalScreen {
  const created = new TerminalScreen({ cols, rows });
  screens.push(created);
  return created;
}

const failingPty =
  (message = 'no /dev/ptmx in this container') =>
  async () => {
    throw new Error(message);
  };

// Asks for the cursor position and prints what the terminal answered (without the final R).
// Echo goes off before the request: an answer arriving before `read -s` had switched it off
// would otherwise be echoed, as on any terminal.
const ASK_CURSOR = `stty -echo; printf '\\033[6n'; read -d R pos; stty echo; printf 'got %q\\n' "$pos"`;

afterEach(() => {
  for (const created of screens.splice(0)) created.dispose();
});

checkLeaksAfterAll();

describe('PTY runs', () => {
  it('runs echo on a PTY and reports its mode', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'echo hello', mode: 'pty' });
    expect(run.stdioMode).toBe('pty');
    expect(run.stdin).toBeDefined();
    expect(typeof run.resize).toBe('function');
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'exit', exitCode: 0, signal: null, stdioMode: 'pty', stderr: '' });
    expect(exit.stdout).toBe('hello\r\n');
  });

  it('reports a failing command, with stderr merged into stdout', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'echo broken >&2; exit 7', mode: 'pty' });
    await expect(run.wait()).resolves.toMatchObject({
      reason: 'exit',
      exitCode: 7,
      stdout: 'broken\r\n',
      stderr: '',
    });
  });

  it('reports death by a signal', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: 'kill -TERM $$', mode: 'pty' });
    await expect(run.wait()).resolves.toMatchObject({ reason: 'signal', exitCode: null, signal: 'SIGTERM' });
  });

  it('writes input and then EOF when stdin is closed', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { file: 'cat', mode: 'pty', stdin: 'closed', input: 'line\n' });
    expect(run.stdin).toBeUndefined();
    const exit = await run.wait();
    expect(exit.exitCode).toBe(0);
    expect(exit.stdout).toContain('line');
  });

  it('resizes the terminal', async () => {
    const { supervisor: sup } = supervisor();
    let seen = '';
    const run = await spawn(sup, {
      command: 'stty size; stty -echo; echo ready; read go; stty size',
      mode: 'pty',
      cols: 80,
      rows: 24,
      onStdout: (chunk) => {
        seen += chunk;
      },
    });
    await waitFor(() => seen.includes('ready'), 10_000, 'the program to be ready');
    run.resize!(100, 40);
    run.stdin!.write('\n');
    await expect(run.wait()).resolves.toMatchObject({ exitCode: 0, stdout: '24 80\r\nready\r\n40 100\r\n' });
    expect(() => run.resize!(0, 40)).toThrowError(/cols must be an integer from 1 to 500/);
  });

  it('resizes an attached screen with the terminal', async () => {
    const { supervisor: sup } = supervisor();
    let seen = '';
    const run = await spawn(sup, {
      command: `stty -echo; echo ready; read go; printf '\\033[999;999H'; ${ASK_CURSOR}`,
      mode: 'pty',
      cols: 80,
      rows: 24,
      screen: screen(80, 24),
      onStdout: (chunk) => {
        seen += chunk;
      },
    });
    await waitFor(() => seen.includes('ready'), 10_000, 'the program to be ready');
    run.resize!(100, 40);
    run.stdin!.write('\n');
    const exit = await run.wait();
    expect(exit.stdout).toContain("got $'\\E[40;100'");
  });

  it('times out on a PTY and leaves no process', async () => {
    const { supervisor: sup } = supervisor();
    const overall = await spawn(sup, { command: 'sleep 30', mode: 'pty', timeoutMs: 300 });
    const idle = await spawn(sup, { command: 'echo started; sleep 30', mode: 'pty', noOutputTimeoutMs: 400 });
    await expect(overall.wait()).resolves.toMatchObject({ reason: 'overall-timeout', timedOut: true });
    const exit = await idle.wait();
    expect(exit).toMatchObject({
      reason: 'no-output-timeout',
      noOutputTimedOut: true,
      stdout: 'started\r\n',
    });
    const survivors = processTable().filter((p) => p.pgid === overall.pid || p.pgid === idle.pid);
    expect(survivors).toEqual([]);
  });
});

describe('PTY fallback', () => {
  it("falls back to pipes with a warning when ptyFallback is 'pipe'", async () => {
    const { supervisor: sup, warnings } = supervisor({ ptyFactory: failingPty() });
    const run = await spawn(sup, { command: 'echo fell back', mode: 'pty', ptyFallback: 'pipe' });
    expect(run.stdioMode).toBe('pipe');
    await expect(run.wait()).resolves.toMatchObject({
      exitCode: 0,
      stdout: 'fell back\n',
      stdioMode: 'pipe',
    });
    expect(warnings).toEqual([
      {
        message: 'procmux: PTY spawn failed; falling back to pipes',
        fields: { command: 'echo fell back', cause: 'no /dev/ptmx in this container' },
      },
    ]);
  });

  it('names a file and its arguments in the fallback warning', async () => {
    const { supervisor: sup, warnings } = supervisor({ ptyFactory: failingPty() });
    const run = await spawn(sup, { file: 'echo', args: ['a', 'b'], mode: 'pty', ptyFallback: 'pipe' });
    await expect(run.wait()).resolves.toMatchObject({ stdout: 'a b\n', stdioMode: 'pipe' });
    expect(warnings[0]?.fields?.command).toBe('echo a b');
  });

  it("rejects with ERR_PROCESS_PTY_BACKEND and the cause when ptyFallback is 'fail'", async () => {
    const { supervisor: sup, warnings } = supervisor({ ptyFactory: failingPty('out of ptys') });
    const error = await rejection(sup.spawn({ command: 'echo never', mode: 'pty' }));
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    expect(((error as Error).cause as Error).message).toBe('out of ptys');
    expect(warnings).toEqual([]);
  });

  it('falls back when the PTY package is missing, and names it otherwise', async () => {
    const real = loadPlatform('linux');
    const withoutPty = () => ({
      ...real,
      loadPty: () => loadPlatform('linux', () => Promise.reject(new Error('not installed'))).loadPty(),
    });
    const { supervisor: sup, warnings } = supervisor({ loadPlatform: withoutPty });
    const run = await spawn(sup, { command: 'echo piped', mode: 'pty', ptyFallback: 'pipe' });
    await expect(run.wait()).resolves.toMatchObject({ stdout: 'piped\n', stdioMode: 'pipe' });
    expect(warnings[0]?.fields?.cause).toContain('@procmux/pty-posix');
    const error = await rejection(sup.spawn({ command: 'echo never', mode: 'pty' }));
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    expect((error as Error).message).toContain('@procmux/pty-posix');
  });

  it('does not fall back on a mistake pipes would repeat', async () => {
    const missing = new ProcmuxError('ERR_PROCESS_SPAWN', 'executable not found: nope');
    const { supervisor: sup, warnings } = supervisor({ ptyFactory: () => Promise.reject(missing) });
    const error = await rejection(sup.spawn({ file: 'nope', mode: 'pty', ptyFallback: 'pipe' }));
    expect(error).toBe(missing);
    expect(warnings).toEqual([]);
  });
});

describe('terminal queries on a PTY', () => {
  it('lets a program that asks for the cursor position complete', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, {
      command: `printf '\\e[6n'; read -s -d R pos; echo "got $pos"`,
      mode: 'pty',
      timeoutMs: 30_000,
    });
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'exit', exitCode: 0, timedOut: false });
    expect(exit.stdout).toContain('got \x1b[1;1\r\n');
    expect(exit.stdout).not.toContain('\x1b[6n');
  });

  it('answers a cursor position request with row 1, column 1 and removes it from the output', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, { command: ASK_CURSOR, mode: 'pty', timeoutMs: 30_000 });
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'exit', exitCode: 0 });
    expect(exit.stdout).toBe("got $'\\E[1;1'\r\n");
    expect(exit.stdout).not.toContain('\x1b[6n');
  });

  it('answers requests split across chunks, in both forms', async () => {
    const { supervisor: sup } = supervisor();
    let streamed = '';
    const run = await spawn(sup, {
      command: `stty -echo; printf '\\033['; sleep 0.2; printf '?6n'; read -d R a; printf '\\033[6'; sleep 0.2; printf 'n'; read -d R b; echo "two answers"`,
      mode: 'pty',
      timeoutMs: 30_000,
      onStdout: (chunk) => {
        streamed += chunk;
      },
    });
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'two answers\r\n' });
    expect(streamed).toBe('two answers\r\n');
  });

  it("answers with the attached screen's cursor", async () => {
    const { supervisor: sup } = supervisor();
    const attached = screen();
    const run = await spawn(sup, {
      command: `printf 'abc\\n12345'; ${ASK_CURSOR}`,
      mode: 'pty',
      screen: attached,
      timeoutMs: 30_000,
    });
    const exit = await run.wait();
    expect(exit.exitCode).toBe(0);
    expect(exit.stdout).toBe("abc\r\n12345got $'\\E[2;6'\r\n");
    expect(await attached.renderFull()).toContain("12345got $'\\E[2;6'");
  });

  it('writes back the other answers the screen gives (device attributes)', async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, {
      command: `stty -echo; printf '\\033[c'; read -d c da; printf 'da %q\\n' "$da"`,
      mode: 'pty',
      screen: screen(),
      timeoutMs: 30_000,
    });
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'exit', exitCode: 0 });
    // Only cursor position requests are removed; the answer came from the screen.
    expect(exit.stdout).toMatch(/^\x1b\[cda \$'\\E\[\?[\d;]+'\r\n$/);
  });

  it("answers the queries of a host's PTY adapter spawned through a factory", async () => {
    const { supervisor: sup } = supervisor();
    const run = await spawn(sup, {
      command: 'host pty',
      adapterFactory: () => createPtyAdapter({ command: ASK_CURSOR }),
      timeoutMs: 30_000,
    });
    expect(run.stdioMode).toBe('pty');
    await expect(run.wait()).resolves.toMatchObject({ exitCode: 0, stdout: "got $'\\E[1;1'\r\n" });
  });

  it('keeps running when its screen is disposed under it', async () => {
    const { supervisor: sup, warnings } = supervisor();
    const attached = new TerminalScreen({ cols: 80, rows: 24 });
    const run = await spawn(sup, {
      command: `read -s go; echo after; ${ASK_CURSOR}`,
      mode: 'pty',
      screen: attached,
      timeoutMs: 30_000,
    });
    attached.dispose();
    run.stdin!.write('\n');
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'exit', exitCode: 0 });
    expect(exit.stdout).toContain('after');
    expect(exit.stdout).toContain("got $'\\E[1;1'");
    expect(warnings.map((w) => w.message)).toContain(
      'procmux: the screen refused output; it is no longer fed',
    );
  });
});

describe('screens on pipes', () => {
  it('feeds stdout and stderr to the screen without answering anything', async () => {
    const { supervisor: sup } = supervisor();
    const attached = screen();
    const run = await spawn(sup, { command: 'echo out; echo err >&2', screen: attached });
    await expect(run.wait()).resolves.toMatchObject({ stdout: 'out\n', stderr: 'err\n' });
    await waitFor(
      async () => (await attached.renderFull()).includes('err'),
      10_000,
      'the screen to show stderr',
    );
    expect(await attached.renderFull()).toContain('out');
  });
});
