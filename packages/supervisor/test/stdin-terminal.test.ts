// stdin 'terminal': fd 0 a pseudo-terminal, stdout and stderr pipes. Real processes; the
// host must hold no terminal descriptor more after a run than before it.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcmuxError } from '@procmux/core-types';
import { assertNoLeakedProcesses, waitFor, waitForSleep } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ChildAdapter, type ChildAdapterOptions } from '../src/index.js';
import { normalizeSpawnOptions } from '../src/spawn-options.js';
import { stdinTerminalOpener } from '../src/stdin-terminal.js';

const started: ChildAdapter[] = [];

async function start(options: ChildAdapterOptions) {
  const adapter = await ChildAdapter.create({ stdin: 'terminal', ...options });
  started.push(adapter);
  const out = { stdout: '', stderr: '' };
  adapter.onStdout((chunk) => {
    out.stdout += chunk;
  });
  adapter.onStderr((chunk) => {
    out.stderr += chunk;
  });
  return { adapter, out };
}

/** This process's descriptors on terminal devices (ptmx masters and pts slaves). */
function hostTerminals(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return /^\/dev\/(ptmx|pts\/)/.test(target) ? [`${fd}->${target}`] : [];
    } catch {
      return [];
    }
  });
}

afterEach(async () => {
  for (const adapter of started.splice(0)) {
    await adapter.kill('force').catch(() => {});
    adapter.dispose();
  }
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

const posix = process.platform !== 'win32';

describe.skipIf(!posix)("ChildAdapter with stdin 'terminal'", () => {
  it('gives a terminal as stdin only: stdout and stderr stay pipes', async () => {
    const { adapter, out } = await start({
      command: 'test -t 0 && echo in-tty; test -t 1 || echo out-pipe; test -t 2 || echo err-pipe >&2',
    });
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe('in-tty\nout-pipe\n');
    expect(out.stderr).toBe('err-pipe\n');
  });

  it('a prompt meant for a terminal shows; typed input is read and its echo is not output', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion
    const { adapter, out } = await start({ command: 'read -s -p "Password: " x; echo "got ${#x} chars"' });
    await waitFor(() => out.stderr.includes('Password: '), 10_000, 'the prompt');
    adapter.stdin!.write('hunter2\n');
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe('got 7 chars\n');
    expect(out.stdout + out.stderr).not.toContain('hunter2');
  });

  // What the program writes to /dev/tty reaches stderr until input is typed; the echo of what
  // is typed (and anything after it) never does.
  it.each([
    {
      what: 'a getpass prompt',
      command: `python3 -c "import getpass; p = getpass.getpass('Secret: '); print('got', len(p))"`,
      shown: 'Secret: ',
      typed: 'hunter2\n',
      stdout: 'got 7\n',
    },
    {
      what: 'a line, then a read with echo on',
      command: 'printf "before\\n" > /dev/tty; read x; echo "got $x"',
      shown: 'before\r\n',
      typed: 'typed-text\n',
      stdout: 'got typed-text\n',
    },
  ])('/dev/tty output before typing is on stderr, typed input is not: $what', async (c) => {
    const { adapter, out } = await start({ command: c.command });
    await waitFor(() => out.stderr === c.shown, 10_000, 'what was written to /dev/tty');
    adapter.stdin!.write(c.typed);
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe(c.stdout);
    expect(out.stderr).toBe(c.shown);
  });

  it('two at once: each prompt reaches its own stderr; 1 MB written to /dev/tty arrives whole', async () => {
    const runs = await Promise.all([
      start({ command: 'printf "one> " > /dev/tty; read x; echo "one $x"' }),
      start({ command: 'printf "two> " > /dev/tty; read x; echo "two $x"' }),
      start({ command: 'head -c 1000000 /dev/zero | tr "\\0" x > /dev/tty' }),
    ]);
    const [one, two, big] = runs;
    await waitFor(() => one!.out.stderr === 'one> ' && two!.out.stderr === 'two> ', 10_000, 'both prompts');
    one!.adapter.stdin!.write('a\n');
    two!.adapter.stdin!.write('b\n');
    await Promise.all(runs.map((r) => r.adapter.wait()));
    expect([one!.out.stdout, two!.out.stdout]).toEqual(['one a\n', 'two b\n']);
    expect([one!.out.stderr, two!.out.stderr]).toEqual(['one> ', 'two> ']);
    expect(big!.out.stderr).toBe('x'.repeat(1_000_000));
  });

  it('close() is end of input (EOF), not a hang-up', async () => {
    const { adapter, out } = await start({ command: 'cat; echo "cat ended $?"' });
    adapter.stdin!.write('line\n');
    await waitFor(() => out.stdout.includes('line\n'), 10_000, 'cat echoing the line');
    adapter.stdin!.close();
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout).toBe('line\ncat ended 0\n');
  });

  it('1 MB typed at once arrives whole, its echo drained (the child never blocks on it)', async () => {
    const { adapter, out } = await start({ command: 'wc -lc' });
    const line = `${'x'.repeat(99)}\n`;
    adapter.stdin!.write(line.repeat(10_000));
    // Typed after the lines, so EOT lands at the start of a line.
    adapter.stdin!.close();
    await expect(adapter.wait()).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout.trim().split(/\s+/)).toEqual(['10000', '1000000']);
  });

  // A program may close its terminal stdin and run on (wc closes fd 0 once it read EOF, then
  // prints). It is the session leader and, through bash, the terminal is its controlling one:
  // the host must not hang that terminal up under it while it runs.
  it.skipIf(process.platform !== 'linux')(
    'a program that closes its stdin and runs on is not hung up: it ends on its own, exit 0',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'procmux-stdin-closed-'));
      const fifo = join(dir, 'go');
      execFileSync('mkfifo', [fifo]);
      try {
        const { adapter, out } = await start({
          command: `exec 0<&-; echo closed; read line < ${fifo}; echo "ran on: $line"`,
        });
        const pid = adapter.pid!;
        let ended = false;
        const result = adapter.wait().finally(() => {
          ended = true;
        });
        await waitFor(() => ended || out.stdout === 'closed\n', 10_000, 'the program to close its stdin');
        // Its last terminal file is closed: a master that hangs up now has seen EIO and closed
        // (one poll of the loop). Wait for the program to block opening the fifo, then let it on.
        const blocked = () => {
          try {
            return readFileSync(`/proc/${pid}/wchan`, 'utf8') === 'wait_for_partner';
          } catch {
            return false; // gone
          }
        };
        await waitFor(() => ended || blocked(), 10_000, 'the program blocked in its read, or ended');
        if (!ended) {
          const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
          writeSync(writer, 'go\n');
          closeSync(writer);
        }
        await expect(result).resolves.toEqual({ code: 0, signal: null });
        expect(out.stdout).toBe('closed\nran on: go\n');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('two at once get two terminals, and each its own input', async () => {
    const runs = await Promise.all([
      start({ command: 'read x; echo "one $x $(tty)"' }),
      start({ command: 'read x; echo "two $x $(tty)"' }),
    ]);
    runs[0].adapter.stdin!.write('a\n');
    runs[1].adapter.stdin!.write('b\n');
    await Promise.all(runs.map((r) => r.adapter.wait()));
    const [one, two] = runs.map((r) => r.out.stdout.trim().split(' '));
    expect(one!.slice(0, 2)).toEqual(['one', 'a']);
    expect(two!.slice(0, 2)).toEqual(['two', 'b']);
    expect(one![2]).toMatch(/^\/dev\/pts\/\d+$/);
    expect(one![2]).not.toBe(two![2]);
  });

  it.skipIf(process.platform !== 'linux')(
    'the child holds only its stdio, the host its terminal while it runs and no terminal descriptor after the run',
    async () => {
      const before = hostTerminals();
      const { adapter } = await start({ command: 'exec sleep 300' });
      const pid = adapter.pid!;
      await waitForSleep(pid);
      expect(readdirSync(`/proc/${pid}/fd`).sort()).toEqual(['0', '1', '2']);
      expect(readlinkSync(`/proc/${pid}/fd/0`)).toMatch(/^\/dev\/pts\/\d+$/);
      expect(readlinkSync(`/proc/${pid}/fd/1`)).toMatch(/^(pipe|socket):/);
      // While it runs the host holds the master and a copy of the child's slave (so the
      // terminal cannot hang up under it), nothing more.
      const during = hostTerminals().filter((d) => !before.includes(d));
      expect(during.map((d) => d.replace(/^\d+->/, '')).sort()).toEqual(
        [readlinkSync(`/proc/${pid}/fd/0`), '/dev/ptmx'].sort(),
      );
      await adapter.kill('force');
      await adapter.wait();
      await waitFor(() => hostTerminals().length === before.length, 5_000, 'the master closed');
      expect(hostTerminals()).toEqual(before);
    },
  );

  it.skipIf(process.platform !== 'linux')(
    "a second child started while the first runs holds none of the first's terminal (the host holds its slave now)",
    async () => {
      const first = await start({ command: 'exec sleep 300' });
      await waitForSleep(first.adapter.pid!);
      const second = await start({ command: 'exec sleep 300' });
      const pid = second.adapter.pid!;
      await waitForSleep(pid);
      expect(readdirSync(`/proc/${pid}/fd`).sort()).toEqual(['0', '1', '2']);
      expect(readlinkSync(`/proc/${pid}/fd/0`)).not.toBe(readlinkSync(`/proc/${first.adapter.pid!}/fd/0`));
    },
  );

  it('a terminal that cannot be opened fails the spawn and starts nothing', async () => {
    const error = await ChildAdapter.create({
      command: 'echo never',
      stdin: 'terminal',
      openStdinTerminal: async () => {
        throw new Error('no pty');
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('no pty');
  });
});

describe("stdin 'terminal' is refused where it cannot mean anything", () => {
  it('on a PTY or with an adapter factory', () => {
    for (const options of [
      { command: 'cat', mode: 'pty' as const, stdin: 'terminal' as const },
      { adapterFactory: async () => ({}) as never, stdin: 'terminal' as const },
    ]) {
      let caught: unknown;
      try {
        normalizeSpawnOptions(options);
      } catch (error) {
        caught = error;
      }
      expect(isProcmuxError(caught, 'ERR_INVALID_OPTION')).toBe(true);
    }
    expect(normalizeSpawnOptions({ command: 'cat', stdin: 'terminal' }).stdin).toBe('terminal');
  });

  it('on Windows', async () => {
    const error = await stdinTerminalOpener('win32')().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toContain('POSIX only');
  });
});
