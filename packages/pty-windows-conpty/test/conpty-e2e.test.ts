// Real programs on a real pseudoconsole: these run in the Windows leg of the CI matrix and are
// skipped elsewhere (ConPTY exists only on Windows 10 1809 and later). ConPTY puts the command
// line in the window title it emits, so each check looks for text only running produces.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { type ConptyOptions, createPtyAdapter, type PtyAdapter } from '../src/index.js';

const notWindows = process.platform !== 'win32';
const dir = notWindows ? '' : realpathSync.native(mkdtempSync(join(tmpdir(), 'conpty-')));

checkLeaksAfterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

async function start(options: ConptyOptions): Promise<{ pty: PtyAdapter; output: () => string }> {
  const pty = await createPtyAdapter(options);
  let out = '';
  pty.onStdout((chunk) => {
    out += chunk;
  });
  return { pty, output: () => out };
}

async function run(options: ConptyOptions) {
  const { pty, output } = await start(options);
  const result = await pty.wait();
  return { result, out: output() };
}

describe('ConPTY (Windows only)', () => {
  it.skipIf(notWindows).each([0, 3, 42])('reports exit code %i (Windows only: ConPTY)', async (code) => {
    const { result } = await run({ command: `exit /b ${code}` });
    expect(result).toEqual({ code, signal: null });
  });

  it.skipIf(notWindows)(
    'passes a cmd command with quotes through verbatim (Windows only: ConPTY)',
    async () => {
      const { out, result } = await run({ command: 'echo "a b" | findstr /n "a" & echo c^&d' });
      expect(out).toContain('1:"a b"');
      expect(out).toContain('c&d');
      expect(result).toEqual({ code: 0, signal: null });
    },
  );

  it.skipIf(notWindows)('runs PowerShell through -EncodedCommand (Windows only: ConPTY)', async () => {
    const { out } = await run({ command: "Write-Output ('quo' + 'ted \"x\"')", shell: 'powershell' });
    expect(out).toContain('quoted "x"');
  });

  it.skipIf(notWindows)('runs a file with args without a shell (Windows only: ConPTY)', async () => {
    const { out } = await run({ file: 'where.exe', args: ['cmd.exe'] });
    expect(out.toLowerCase()).toContain('\\system32\\cmd.exe');
  });

  it.skipIf(notWindows)('honours cwd and env, and marks the tree (Windows only: ConPTY)', async () => {
    const { out } = await run({
      command: 'cd & echo %CONPTY_E2E%-%PROCMUX_TREE%',
      cwd: dir,
      env: { ...process.env, CONPTY_E2E: 'from-env' },
    });
    expect(out).toContain(dir);
    expect(out).toContain(`from-env-${process.pid}-`);
  });

  it.skipIf(notWindows)('reads input written to stdin (Windows only: ConPTY)', async () => {
    const { pty, output } = await start({
      command: '$x = Read-Host; Write-Output "got $x"',
      shell: 'powershell',
    });
    pty.stdin.write('abc\r');
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
    expect(output()).toContain('got abc');
  });

  it.skipIf(notWindows)('makes a resize visible to the program (Windows only: ConPTY)', async () => {
    const { pty, output } = await start({
      command: 'Read-Host | Out-Null; Write-Output "width=$($Host.UI.RawUI.WindowSize.Width)"',
      shell: 'powershell',
    });
    pty.resize(77, 22);
    pty.stdin.write('\r');
    await pty.wait();
    expect(output()).toContain('width=77');
  });

  it.skipIf(notWindows)("kill('force') ends the tree (Windows only: ConPTY)", async () => {
    const { pty, output } = await start({ command: 'echo started & ping -n 100 127.0.0.1 > nul' });
    await waitFor(() => output().includes('started'), 20_000, 'cmd to start');
    await pty.kill('force');
    // taskkill /F ends a process as TerminateProcess(…, 1) does.
    expect(await pty.wait()).toEqual({ code: 1, signal: null });
  });

  it.skipIf(notWindows)("kill('graceful') interrupts with Ctrl-C (Windows only: ConPTY)", async () => {
    const { pty, output } = await start({ file: 'ping.exe', args: ['-n', '100', '127.0.0.1'] });
    await waitFor(() => output().includes('127.0.0.1'), 20_000, 'ping to start');
    await pty.kill('graceful');
    // ping would run for 99 s: settling within the test's timeout is the interruption.
    const result = await pty.wait();
    expect(result.signal).toBeNull();
    expect(result.code).not.toBe(0);
  });

  it.skipIf(notWindows)('rejects a program that does not exist (Windows only: ConPTY)', async () => {
    const error = await createPtyAdapter({ file: 'no-such-program-xyz.exe' }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
  });

  it.skipIf(notWindows)('rejects a missing cwd (Windows only: ConPTY)', async () => {
    const missing = join(dir, 'missing');
    await expect(createPtyAdapter({ command: 'echo x', cwd: missing })).rejects.toThrow(missing);
  });
});
