import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll, isAlive, testTmpdir, waitFor } from '@procmux/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { createPtyAdapter, PtyAdapter } from '../src/index.js';
import { run, start } from './helpers.js';

const dir = realpathSync(mkdtempSync(join(testTmpdir(), 'pty-posix-')));

checkLeaksAfterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exit status', () => {
  it.each([0, 3, 42])('reports exit code %i', async (code) => {
    const { result } = await run({ command: `exit ${code}` });
    expect(result).toEqual({ code, signal: null });
  });

  it('reports a program that SIGTERMs itself as signal SIGTERM, not code 0', async () => {
    const { result } = await run({ command: 'kill -TERM $$' });
    expect(result).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('reports a program that SIGKILLs itself as signal SIGKILL', async () => {
    const { result } = await run({ command: 'kill -KILL $$' });
    expect(result).toEqual({ code: null, signal: 'SIGKILL' });
  });
});

describe('output and environment', () => {
  it('delivers what the program prints, with the terminal turning \\n into \\r\\n', async () => {
    const { out } = await run({ command: "printf 'hello\\nwörld ✓\\n'" });
    expect(out).toBe('hello\r\nwörld ✓\r\n');
  });

  it("hands an ASCII chunk's bytes on with its text (exactly its UTF-8), and none with other text", async () => {
    const pty = await PtyAdapter.create({ command: "printf 'plain\\n'; read x; printf 'w\\303\\266rld\\n'" });
    const seen: { text: string; bytes: string | undefined }[] = [];
    pty.onStdout((text, bytes) => {
      // Copied in the call: the bytes are the reader's own, valid only during it.
      seen.push({ text, bytes: bytes && Buffer.from(bytes).toString('latin1') });
    });
    // The second line is written only after the first was read: two reads, two chunks.
    await waitFor(() => seen.some((c) => c.text.includes('plain')), 20_000, 'the ASCII line');
    pty.stdin.write('\r');
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
    expect(seen.map((c) => c.text).join('')).toBe('plain\r\n\r\nwörld\r\n');
    const ascii = seen.find((c) => c.text.includes('plain'))!;
    expect(ascii.bytes).toBe(Buffer.from(ascii.text, 'utf8').toString('latin1'));
    expect(seen.find((c) => c.text.includes('ö'))!.bytes).toBeUndefined();
    for (const chunk of seen) {
      if (chunk.bytes !== undefined)
        expect(chunk.bytes).toBe(Buffer.from(chunk.text, 'utf8').toString('latin1'));
    }
  });

  it('runs a file with args without a shell', async () => {
    const { out, result } = await run({ file: 'printf', args: ['%s|', 'a b', '$HOME', "'q'"] });
    expect(out).toBe("a b|$HOME|'q'|");
    expect(result).toEqual({ code: 0, signal: null });
  });

  it('runs in the given cwd', async () => {
    const { out } = await run({ command: 'pwd', cwd: dir });
    expect(out.trim()).toBe(dir);
  });

  it('gives the program exactly the env passed, plus TERM, PWD and the tree marker', async () => {
    const { out } = await run({
      file: '/usr/bin/env',
      env: { FOO: 'bar baz', DROPPED: undefined },
      term: 'vt100',
      cwd: dir,
    });
    const lines = out.trim().split('\r\n').sort();
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('FOO=bar baz');
    expect(lines[1]).toMatch(new RegExp(`^PROCMUX_TREE=${process.pid}-\\d+-[0-9a-f]+$`));
    expect(lines[2]).toBe(`PWD=${dir}`);
    expect(lines[3]).toBe('TERM=vt100');
  });

  it('inherits process.env by default, with TERM xterm-256color and no COLUMNS/LINES', async () => {
    process.env.PTY_POSIX_TEST_VAR = 'inherited';
    process.env.COLUMNS = '5';
    try {
      const { out } = await run({ command: 'echo "$PTY_POSIX_TEST_VAR|$TERM|$' + '{COLUMNS-unset}"' });
      expect(out.trim()).toBe('inherited|xterm-256color|unset');
    } finally {
      delete process.env.PTY_POSIX_TEST_VAR;
      delete process.env.COLUMNS;
    }
  });

  it('gives every run its own tree marker', async () => {
    const first = await run({ command: 'echo $PROCMUX_TREE' });
    const second = await run({ command: 'echo $PROCMUX_TREE' });
    expect(first.out.trim()).not.toBe(second.out.trim());
  });

  it('keeps output printed before anyone listens and hands it to the first listener', async () => {
    const pty = await createPtyAdapter({ command: 'echo early bird' });
    await pty.wait();
    const seen: string[] = [];
    pty.onStdout((chunk) => seen.push(chunk));
    await Promise.resolve();
    expect(seen.join('')).toBe('early bird\r\n');
    expect(pty.stdioMode).toBe('pty');
    expect(pty.backend).toBe('node-pty');
  });

  it('never fires onStderr: the terminal merges stderr into stdout', async () => {
    const pty = await PtyAdapter.create({ command: 'echo to-stderr >&2' });
    const errors: string[] = [];
    let out = '';
    const off = pty.onStderr((chunk) => errors.push(chunk));
    pty.onStdout((chunk) => {
      out += chunk;
    });
    await pty.wait();
    off();
    expect(out).toBe('to-stderr\r\n');
    expect(errors).toEqual([]);
  });

  it('stops delivering to a listener once its disposer is called', async () => {
    const { pty, until } = await start({ command: 'echo one; read _; echo two' });
    let late = '';
    const off = pty.onStdout((chunk) => {
      late += chunk;
    });
    await until('one');
    off();
    off();
    pty.stdin.write('\n');
    await pty.wait();
    expect(late).not.toContain('two');
  });
});

describe('terminal', () => {
  it('starts at 120x30 by default and at the size asked for', async () => {
    expect((await run({ command: 'stty size' })).out.trim()).toBe('30 120');
    expect((await run({ command: 'stty size', cols: 80, rows: 24 })).out.trim()).toBe('24 80');
  });

  it('makes a resize visible to the program', async () => {
    const { pty, output } = await start({ command: 'read _; stty size' });
    pty.resize(77, 22);
    pty.stdin.write('\n');
    await pty.wait();
    expect(output()).toContain('22 77');
  });

  it('ends cat with EOT from stdin.close()', async () => {
    const { pty, until } = await start({ file: 'cat' });
    pty.stdin.write('typed line\n');
    await until('typed line\r\ntyped line\r\n', 'echo and copy');
    pty.stdin.close();
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
  });

  it('passes large input through, waiting while the program does not read', async () => {
    const size = 300_000;
    const { pty, until } = await start({ command: 'stty raw -echo; echo ready; head -c 300000 | wc -c' });
    await until('ready');
    pty.stdin.write(Buffer.alloc(size, 'x'));
    const out = await until(/\d{6}/, 'the byte count');
    expect(out).toContain(String(size));
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
  });

  it('tracks bracketed paste from the program output', async () => {
    const { pty, until } = await start({
      command: "printf 'on\\033[?2004h'; read _; printf 'off\\033[?2004l'; read _",
    });
    expect(pty.stdin.bracketedPasteEnabled).toBe(false);
    await until('on\x1b[?2004h');
    expect(pty.stdin.bracketedPasteEnabled).toBe(true);
    pty.stdin.write('\n');
    await until('off\x1b[?2004l');
    expect(pty.stdin.bracketedPasteEnabled).toBe(false);
    pty.stdin.write('\n');
    await pty.wait();
  });

  it('refuses a resize that is not a positive integer size', async () => {
    const { pty } = await start({ command: 'read _' });
    for (const [cols, rows] of [
      [0, 10],
      [10, -1],
      [1.5, 10],
      [10, Number.NaN],
      [501, 10],
      [10, 201],
    ]) {
      expect(() => pty.resize(cols as number, rows as number)).toThrow(/must be an integer from 1 to/);
    }
    pty.stdin.write('\n');
    await pty.wait();
    pty.resize(10, 10);
  });

  it('refuses stdin data that is neither a string nor bytes', async () => {
    const { pty } = await start({ command: 'read _' });
    expect(() => pty.stdin.write(42 as unknown as string)).toThrow(/string or a Uint8Array/);
    pty.stdin.write(new TextEncoder().encode('\n'));
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
    pty.stdin.write('ignored after exit');
  });
});

describe('kill', () => {
  it("kill('graceful') sends SIGTERM to the program", async () => {
    const { pty } = await start({ file: 'sleep', args: ['100'] });
    await pty.kill('graceful');
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it("kill('force') tears down the whole tree at once", async () => {
    const { pty, until } = await start({
      command: "trap '' TERM; sleep 100 & sleep 100 & echo started; wait",
    });
    await until('started');
    await pty.kill('force');
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('kills by force when no mode is given: SIGTERM first, which sleep honours', async () => {
    const { pty } = await start({ file: 'sleep', args: ['100'] });
    await pty.kill();
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('SIGKILLs a program that ignores SIGTERM once killGraceMs has passed', async () => {
    const { pty } = await start({
      command: "trap '' TERM; echo armed; while :; do sleep 1; done",
      killGraceMs: 300,
    });
    let seen = '';
    pty.onStdout((chunk) => {
      seen += chunk;
    });
    await waitFor(() => seen.includes('armed'), 10_000, 'the trap');
    await pty.kill('force');
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('settles as SIGKILL when no exit arrives after a force kill', async () => {
    const pty = await PtyAdapter.create({
      file: 'sleep',
      args: ['100'],
      forceKillSettleMs: 100,
      killTree: async () => ({ signalled: [], survivors: [] }),
    });
    await pty.kill('force');
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGKILL' });
    // Settling gave the terminal up: the hang-up ends sleep.
    await waitFor(() => !isAlive(pty.pid), 10_000, 'sleep to end');
  });

  it('does nothing once the program has exited', async () => {
    let calls = 0;
    const pty = await PtyAdapter.create({
      command: 'exit 0',
      killTree: async () => {
        calls += 1;
        return { signalled: [], survivors: [] };
      },
    });
    await pty.wait();
    await pty.kill('force');
    await pty.kill('graceful');
    expect(calls).toBe(0);
  });

  it('refuses an unknown kill mode', async () => {
    const { pty } = await start({ command: 'exit 0' });
    await expect(pty.kill('hard' as never)).rejects.toThrow(/^mode must be one of 'graceful', 'force'/);
    await pty.wait();
  });

  it('passes on a graceful kill the OS refused (EPERM), and ignores one that found the program gone (ESRCH)', async () => {
    const { pty } = await start({ command: 'sleep 30' });
    const refuse = (code: string) =>
      vi.spyOn(process, 'kill').mockImplementationOnce(() => {
        throw Object.assign(new Error(code), { code });
      });
    const eperm = refuse('EPERM');
    await expect(pty.kill('graceful')).rejects.toThrow('EPERM');
    eperm.mockRestore();
    const esrch = refuse('ESRCH');
    await pty.kill('graceful');
    esrch.mockRestore();
    await pty.kill('force');
    await pty.wait();
  });
});

describe('lifetime', () => {
  it('settles when the program exits while a grandchild still holds the terminal', async () => {
    const { pty, output } = await start({
      command: "trap '' HUP; sleep 60 & echo started",
      drainTimeoutMs: 100,
    });
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
    expect(output()).toBe('started\r\n');
    // The grandchild stayed in the program's process group.
    process.kill(-pty.pid, 'SIGKILL');
  });

  it('dispose() releases the terminal; the program sees the hang-up and wait() still settles', async () => {
    const { pty, until } = await start({ command: 'echo up; sleep 100' });
    await until('up');
    pty.dispose();
    pty.dispose();
    const seen: string[] = [];
    pty.onStdout((chunk) => seen.push(chunk));
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGHUP' });
    pty.stdin.write('ignored');
    pty.resize(10, 10);
    await pty.kill('force');
    expect(seen).toEqual([]);
  });
});

describe('descriptors', () => {
  it.skipIf(process.platform !== 'linux')(
    'releases both PTY descriptors after an exit, a held terminal and a dispose (Linux: /proc)',
    async () => {
      const open = () => readdirSync('/proc/self/fd').length;
      const before = open();
      for (const command of ['echo x', "trap '' HUP; sleep 0.2 & echo y"]) {
        await run({ command, drainTimeoutMs: 20 });
      }
      const disposed = await PtyAdapter.create({ file: 'sleep', args: ['5'] });
      disposed.dispose();
      await disposed.wait();
      await waitFor(() => open() <= before, 10_000, 'descriptors to be closed');
      expect(open()).toBeLessThanOrEqual(before);
    },
  );
});

describe('spawn failures', () => {
  it('rejects a missing cwd with ERR_PROCESS_SPAWN naming it', async () => {
    const missing = join(dir, 'nope');
    const error = await createPtyAdapter({ command: 'true', cwd: missing }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toBe(`cwd does not exist: ${missing}`);
  });

  it('rejects a cwd that is a file', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    await expect(createPtyAdapter({ command: 'true', cwd: file })).rejects.toThrow(
      `cwd is not a directory: ${file}`,
    );
  });

  it('rejects a program that is not on PATH', async () => {
    const error = await createPtyAdapter({ file: 'no-such-program-xyz' }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toMatch(/executable not found: no-such-program-xyz .*PATH/);
  });

  it('rejects a missing program path, absolute or relative to cwd', async () => {
    await expect(createPtyAdapter({ file: '/no/such/bin' })).rejects.toThrow(
      'executable not found: /no/such/bin (no executable file at that path)',
    );
    await expect(createPtyAdapter({ file: './missing', cwd: dir })).rejects.toThrow(`relative to cwd ${dir}`);
  });

  it('finds a program relative to cwd and on a relative PATH entry, as execvp does', async () => {
    const script = join(dir, 'hello.sh');
    writeFileSync(script, '#!/bin/sh\necho from-script\n', { mode: 0o755 });
    expect((await run({ file: './hello.sh', cwd: dir })).out).toBe('from-script\r\n');
    expect((await run({ file: 'hello.sh', cwd: dir, env: { PATH: '.' } })).out).toBe('from-script\r\n');
  });

  it('reports a command the shell cannot find as exit 127, as the shell does', async () => {
    const { result, out } = await run({ command: 'no-such-program-xyz' });
    expect(result).toEqual({ code: 127, signal: null });
    expect(out).toContain('not found');
  });
});
