import { checkLeaksAfterAll, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { pidExists, runFile, windowsKillEffects } from '../src/platform.js';

const posix = process.platform !== 'win32';

describe('the real effects', () => {
  it('exist only on win32', () => {
    expect(() => windowsKillEffects('linux')).toThrow(/only on win32 \(this is linux\)/);
    throwsWith(() => windowsKillEffects('linux'), 'ERR_PROCESS_UNSUPPORTED');
    const error = throwsWith(() => windowsKillEffects('darwin'), 'ERR_PROCESS_UNSUPPORTED');
    expect(error.message).toMatch(/only on win32 \(this is darwin\)/);
    const effects = windowsKillEffects('win32', { SystemRoot: 'C:\\Windows' });
    expect(effects.selfPid).toBe(process.pid);
    expect(effects.env).toEqual({ SystemRoot: 'C:\\Windows' });
    expect(effects.isAlive(process.pid)).toBe(true);
    expect(effects.now()).toBeGreaterThan(0);
  });

  it('sleep waits on a timer', async () => {
    const effects = windowsKillEffects('win32');
    const before = Date.now();
    await effects.sleep(20);
    expect(Date.now()).toBeGreaterThanOrEqual(before + 15);
  });

  it('pidExists: ESRCH is gone, EPERM exists', () => {
    expect(pidExists(process.pid)).toBe(true);
    const throwing = (code: string) => () => {
      throw Object.assign(new Error(code), { code });
    };
    expect(pidExists(5, throwing('ESRCH'))).toBe(false);
    expect(pidExists(5, throwing('EPERM'))).toBe(true);
  });
});

describe.skipIf(!posix)('runFile (runs POSIX programs here; on Windows it runs taskkill.exe)', () => {
  it("the real effects' exec and process table run their programs (here: POSIX sh, and no PowerShell)", async () => {
    const effects = windowsKillEffects('win32', { SystemRoot: '/nonexistent-windows' });
    expect((await effects.exec('/bin/sh', ['-c', 'exit 3'])).code).toBe(3);
    await expect(effects.processTable!()).rejects.toThrow();
  });

  it('resolves exit code 0 with the output', async () => {
    expect(await runFile('/bin/sh', ['-c', 'echo out; echo err >&2'])).toEqual({
      code: 0,
      stdout: 'out\n',
      stderr: 'err\n',
    });
  });

  it("resolves a non-zero exit code, such as taskkill's 128, instead of rejecting", async () => {
    expect(await runFile('/bin/sh', ['-c', 'echo gone >&2; exit 128'])).toEqual({
      code: 128,
      stdout: '',
      stderr: 'gone\n',
    });
  });

  it('resolves code null when the program had to be stopped', async () => {
    expect((await runFile('/bin/sh', ['-c', 'exec sleep 30'], 100)).code).toBeNull();
  });

  it('rejects when the program cannot be started', async () => {
    await expect(runFile('/nonexistent/taskkill.exe', ['/PID', '1'])).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

checkLeaksAfterAll();
