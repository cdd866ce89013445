// The adapter over an injected fake node-pty: what it spawns and how it maps node-pty's
// events, checked on any platform. Real ConPTY runs are in conpty-e2e.test.ts (Windows).
import { isProcmuxError, type KillTreeOptions } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { type ConptyOptions, createPtyAdapter, PtyAdapter } from '../src/index.js';
import { FakeNodePty } from './fake-node-pty.js';

const CMD = 'C:\\Windows\\system32\\cmd.exe';

async function spawnFake(options: ConptyOptions = {}) {
  const nodePty = new FakeNodePty();
  const kills: [number, KillTreeOptions][] = [];
  const pty = await PtyAdapter.create({
    command: 'echo hi',
    comspec: CMD,
    cwd: 'C:\\work',
    isDirectory: () => true,
    killTree: async (pid, killOptions) => {
      kills.push([pid, killOptions]);
      return { signalled: [pid], survivors: [] };
    },
    ...options,
    nodePty,
  });
  const call = nodePty.calls[0]!;
  return { pty, nodePty, terminal: nodePty.terminal, call, kills };
}

describe('what is spawned', () => {
  it('runs a cmd command verbatim: /d /s /c "<command>" as a string node-pty will not re-quote', async () => {
    const { call } = await spawnFake({ command: 'echo "a b" & ver' });
    expect(call.file).toBe(CMD);
    expect(call.args).toBe('/d /s /c "echo "a b" & ver"');
  });

  it('runs a PowerShell command through -EncodedCommand', async () => {
    const { call } = await spawnFake({ command: 'Write-Output \'a "b"\'', shell: 'pwsh' });
    expect(call.file).toBe('pwsh.exe');
    expect(typeof call.args).toBe('string');
    const encoded = /-EncodedCommand (\S+)$/.exec(call.args as string)?.[1];
    expect(Buffer.from(encoded!, 'base64').toString('utf16le')).toBe('Write-Output \'a "b"\'');
  });

  it('runs a file with args as an array, for node-pty to quote', async () => {
    const { call } = await spawnFake({
      command: undefined,
      comspec: undefined,
      file: 'C:\\tools\\app.exe',
      args: ['a b', 'c"d'],
    });
    expect(call.file).toBe('C:\\tools\\app.exe');
    expect(call.args).toEqual(['a b', 'c"d']);
  });

  it('asks for ConPTY at 120x30 with TERM, in the resolved cwd', async () => {
    const { call } = await spawnFake({ cwd: 'C:\\work\\sub\\..' });
    expect(call.options).toMatchObject({
      useConpty: true,
      cols: 120,
      rows: 30,
      name: 'xterm-256color',
      cwd: 'C:\\work',
    });
    const sized = await spawnFake({ cols: 80, rows: 25, term: 'vt100' });
    expect(sized.call.options).toMatchObject({ cols: 80, rows: 25, name: 'vt100' });
    expect(sized.call.options.env.TERM).toBe('vt100');
  });

  it('puts the tree marker in the environment it was given', async () => {
    const { call } = await spawnFake({ env: { Path: 'C:\\bin', GONE: undefined } });
    expect(call.options.env).toEqual({
      Path: 'C:\\bin',
      TERM: 'xterm-256color',
      PROCMUX_TREE: expect.stringMatching(new RegExp(`^${process.pid}-\\d+-[0-9a-f]+$`)),
    });
  });

  it('inherits process.env when no env is given', async () => {
    process.env.CONPTY_TEST_VAR = 'inherited';
    try {
      const { call } = await spawnFake();
      expect(call.options.env.CONPTY_TEST_VAR).toBe('inherited');
      expect(call.options.env.PROCMUX_TREE).toMatch(new RegExp(`^${process.pid}-`));
    } finally {
      delete process.env.CONPTY_TEST_VAR;
    }
  });

  it('reports which backend it runs on, and its pid', async () => {
    const { pty } = await spawnFake();
    expect(pty.backend).toBe('node-pty');
    expect(pty.pid).toBe(4242);
    expect(pty.stdioMode).toBe('pty');
  });
});

describe('spawn failures', () => {
  it('rejects a missing cwd with ERR_PROCESS_SPAWN naming it, before spawning', async () => {
    const nodePty = new FakeNodePty();
    const error = await createPtyAdapter({
      command: 'ver',
      cwd: 'D:\\gone',
      isDirectory: () => false,
      nodePty,
    }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toBe('cwd does not exist or is not a directory: D:\\gone');
    expect(nodePty.calls).toEqual([]);
  });

  it('loads node-pty itself when none is injected, and checks cwd with a real stat', async () => {
    const error = await createPtyAdapter({ command: 'ver', cwd: 'Z:\\no\\such\\dir' }).catch(
      (e: unknown) => e,
    );
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toBe('cwd does not exist or is not a directory: Z:\\no\\such\\dir');
  });

  it("turns node-pty's failure to start the program into ERR_PROCESS_SPAWN", async () => {
    const nodePty = new FakeNodePty();
    nodePty.failWith = new Error('File not found: nope.exe');
    const error = await PtyAdapter.create({
      file: 'nope.exe',
      cwd: 'C:\\',
      isDirectory: () => true,
      nodePty,
    }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toBe(
      'could not start nope.exe on ConPTY (is it installed and on PATH?)',
    );
    expect(((error as Error).cause as Error).message).toBe('File not found: nope.exe');
  });

  it('refuses a multi-line command for cmd, which would run only its first line', async () => {
    await expect(spawnFake({ command: 'echo a\necho b' })).rejects.toThrow(/single line/);
  });
});

describe('exit', () => {
  it('maps the exit code, with no signal', async () => {
    const { pty, terminal } = await spawnFake();
    terminal.exit(42);
    expect(await pty.wait()).toEqual({ code: 42, signal: null });
  });

  it('settles as SIGKILL when no exit arrives after a force kill', async () => {
    const { pty, kills } = await spawnFake({ forceKillSettleMs: 20 });
    await pty.kill('force');
    expect(kills).toEqual([[4242, { graceMs: 3000 }]]);
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('reports the real exit when it comes after a force kill in time', async () => {
    const { pty, terminal } = await spawnFake({ forceKillSettleMs: 60_000 });
    await pty.kill();
    terminal.exit(1);
    expect(await pty.wait()).toEqual({ code: 1, signal: null });
  });

  it('a hang-up signals nothing (Windows has no SIGHUP): no write, no kill, the program runs on', async () => {
    const { pty, terminal, kills } = await spawnFake();
    await expect(pty.hangUp()).resolves.toBe(false);
    expect(terminal.writes).toEqual([]);
    expect(kills).toEqual([]);
    terminal.exit(0);
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
  });

  it('graceful kill types Ctrl-C into the console', async () => {
    const { pty, terminal, kills } = await spawnFake();
    await pty.kill('graceful');
    expect(terminal.writes).toEqual(['\x03']);
    expect(kills).toEqual([]);
  });

  it('does nothing on kill once the program has exited, and refuses an unknown mode', async () => {
    const { pty, terminal, kills } = await spawnFake();
    terminal.exit(0);
    await pty.kill('force');
    await pty.kill('graceful');
    expect(kills).toEqual([]);
    expect(terminal.writes).toEqual([]);
    await expect(pty.kill('soft' as never)).rejects.toThrow(/^mode must be one of 'graceful', 'force'/);
  });
});

describe('input and output', () => {
  it('keeps output printed before anyone listens and hands it to the first listener', async () => {
    const { pty, terminal } = await spawnFake();
    terminal.print('Microsoft Windows\r\n');
    terminal.print('C:\\work>');
    const seen: string[] = [];
    pty.onStdout((chunk) => seen.push(chunk));
    await Promise.resolve();
    terminal.print('ver');
    expect(seen).toEqual(['Microsoft Windows\r\nC:\\work>', 'ver']);
  });

  it('never fires onStderr', async () => {
    const { pty, terminal } = await spawnFake();
    const errors: string[] = [];
    pty.onStderr((chunk) => errors.push(chunk))();
    terminal.print('err');
    expect(errors).toEqual([]);
  });

  it('writes text and bytes, and sends EOT on close', async () => {
    const { pty, terminal } = await spawnFake();
    pty.stdin.write('dir\r');
    pty.stdin.write(new Uint8Array([0x61, 0x62]));
    pty.stdin.close();
    expect(terminal.writes).toEqual(['dir\r', Buffer.from('ab'), '\x04']);
    expect(() => pty.stdin.write(7 as unknown as string)).toThrow(/string or a Uint8Array/);
    terminal.exit(0);
    pty.stdin.write('late');
    expect(terminal.writes).toHaveLength(3);
  });

  it('tracks bracketed paste, even when the sequence is split across chunks', async () => {
    const { pty, terminal } = await spawnFake();
    expect(pty.stdin.bracketedPasteEnabled).toBe(false);
    terminal.print('PS> \x1b[?20');
    terminal.print('04h');
    expect(pty.stdin.bracketedPasteEnabled).toBe(true);
    terminal.print('\x1b[?2004l');
    expect(pty.stdin.bracketedPasteEnabled).toBe(false);
  });

  it('resizes the pseudoconsole, refusing a bad size and ignoring one after the exit', async () => {
    const { pty, terminal } = await spawnFake();
    pty.resize(100, 40);
    expect(() => pty.resize(0, 40)).toThrow('cols must be an integer from 1 to 500 (got 0)');
    expect(() => pty.resize(100, 1.5)).toThrow('rows must be an integer from 1 to 200 (got 1.5)');
    terminal.exit(0);
    pty.resize(50, 20);
    expect(terminal.resizes).toEqual([[100, 40]]);
  });
});

describe('dispose', () => {
  it('closes the pseudoconsole once, stops output, and still settles on the exit', async () => {
    const { pty, terminal } = await spawnFake();
    const seen: string[] = [];
    pty.onStdout((chunk) => seen.push(chunk));
    await pty.kill('force').then(() => pty.dispose());
    pty.dispose();
    expect(terminal.kills).toBe(1);
    expect(terminal.dataListeners).toBe(0);
    terminal.print('after');
    pty.resize(10, 10);
    pty.stdin.write('x');
    terminal.exit(3);
    expect(await pty.wait()).toEqual({ code: 3, signal: null });
    expect(seen).toEqual([]);
    expect(terminal.resizes).toEqual([]);
  });

  it('does not close a pseudoconsole whose program already exited', async () => {
    const { pty, terminal } = await spawnFake();
    terminal.exit(0);
    pty.dispose();
    expect(terminal.kills).toBe(0);
  });
});
