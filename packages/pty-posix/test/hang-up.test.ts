// hangUp(): what closing a terminal window does, from the adapter that owns the terminal.
import { checkLeaksAfterAll, isAlive, processTable, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  foregroundGroup,
  type HangUpEffects,
  hangUpTerminal,
  startTimeOf,
  stillRunning,
  systemHangUpEffects,
} from '../src/hang-up.js';
import { start } from './helpers.js';

checkLeaksAfterAll();

describe('PtyAdapter.hangUp', () => {
  it('ends an idle bash -i by SIGHUP (it ignores SIGTERM); nothing to hang up afterwards', async () => {
    const { pty, until } = await start({ file: 'bash', args: ['--norc', '--noprofile', '-i'] });
    await until(/[$#] *$/, 'a bash prompt');
    await expect(pty.hangUp()).resolves.toBe(true);
    expect(await pty.wait()).toEqual({ code: null, signal: 'SIGHUP' });
    await expect(pty.hangUp()).resolves.toBe(false);
    pty.dispose();
  });

  it('reaches the foreground job (cat) as well as the shell', async () => {
    const { pty, until } = await start({ file: 'bash', args: ['--norc', '--noprofile', '-i'] });
    await until(/[$#] *$/, 'a bash prompt');
    pty.stdin.write('exec 2>/dev/null; cat\r');
    const catOf = () => processTable().find((p) => p.ppid === pty.pid && p.command.includes('cat'));
    await waitFor(() => catOf() !== undefined, 10_000, 'cat');
    const cat = catOf()!;
    await expect(pty.hangUp()).resolves.toBe(true);
    expect((await pty.wait()).signal).toBe('SIGHUP');
    await waitFor(() => !isAlive(cat.pid), 5_000, 'cat gone');
    pty.dispose();
  });
});

describe('the system effects', () => {
  it.skipIf(process.platform !== 'linux')(
    "ps (macOS's path) names the same foreground group as /proc (Linux's) for a live terminal",
    async () => {
      const { pty, until } = await start({ file: 'bash', args: ['--norc', '--noprofile', '-i'] });
      await until(/[$#] *$/, 'a bash prompt');
      const fromProc = foregroundGroup(pty.pid, systemHangUpEffects);
      const fromPs = foregroundGroup(pty.pid, { ...systemHangUpEffects, platform: 'darwin' });
      expect(fromProc).toBe(pty.pid);
      expect(fromPs).toBe(fromProc);
      pty.kill('force');
      await pty.wait();
      pty.dispose();
      // Gone: neither source answers, and a hang-up of it is not an error.
      expect(systemHangUpEffects.readStat(pty.pid)).toBeUndefined();
      expect(systemHangUpEffects.psTpgid(pty.pid)).toBeUndefined();
      expect(() => systemHangUpEffects.kill(pty.pid, 'SIGHUP')).not.toThrow();
    },
  );

  it('passes on a kill error other than "no such process"', () => {
    expect(() => systemHangUpEffects.kill(Number.NaN, 'SIGHUP')).toThrow();
  });
});

describe('hang-up targets (pure)', () => {
  // `sent`: the targets hung up; `signals`: every signal in order, as `SIGNAL target`.
  const effects = (over: Partial<HangUpEffects>): HangUpEffects & { sent: number[]; signals: string[] } => {
    const sent: number[] = [];
    const signals: string[] = [];
    return {
      platform: 'linux',
      readStat: () => undefined,
      psTpgid: () => undefined,
      kill: (target, signal) => {
        signals.push(`${signal} ${target}`);
        if (signal === 'SIGHUP') sent.push(target);
      },
      sent,
      signals,
      ...over,
    };
  };

  it('reads tpgid on Linux after the command name, even one with spaces and parentheses', () => {
    const stat = '4242 (my (odd) name) S 1 4242 4242 34817 5001 4194560 0 0';
    expect(foregroundGroup(4242, effects({ readStat: () => stat }))).toBe(5001);
    const e = effects({ readStat: () => stat });
    expect(hangUpTerminal(4242, e)).toEqual([-5001, 4242]);
    expect(e.sent).toEqual([-5001, 4242]);
    // Each target continued right after its hang-up, as the kernel's hang-up does.
    expect(e.signals).toEqual(['SIGHUP -5001', 'SIGCONT -5001', 'SIGHUP 4242', 'SIGCONT 4242']);
  });

  it('signals the group once when the leader is in the foreground, the leader alone when unknown', () => {
    const e = effects({ readStat: () => '7 (bash) S 1 7 7 34817 7 0' });
    expect(hangUpTerminal(7, e)).toEqual([-7]);
    expect(hangUpTerminal(7, effects({}))).toEqual([7]);
    // tpgid -1: no controlling terminal.
    expect(foregroundGroup(7, effects({ readStat: () => '7 (x) S 1 7 7 0 -1 0' }))).toBeUndefined();
  });

  it('signals nothing once the pid names another process (its start time differs) or none', () => {
    // Fields after the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    // cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime.
    const stat = (start: number) =>
      `4242 (bash) S 1 4242 4242 34817 5001 0 0 0 0 0 0 0 0 0 20 0 1 0 ${start} 0`;
    expect(startTimeOf(4242, effects({ readStat: () => stat(81234) }))).toBe('81234');
    const same = effects({ readStat: () => stat(81234) });
    expect(hangUpTerminal(4242, same, '81234')).toEqual([-5001, 4242]);
    expect(same.sent).toEqual([-5001, 4242]);
    // The program was reaped and 4242 went to a later process, on another terminal.
    const reused = effects({ readStat: () => stat(99000) });
    expect(hangUpTerminal(4242, reused, '81234')).toEqual([]);
    expect(reused.sent).toEqual([]);
    const gone = effects({});
    expect(hangUpTerminal(4242, gone, '81234')).toEqual([]);
    expect(gone.sent).toEqual([]);
    // No start time known (read too late, or not Linux): as before, by the pid alone.
    expect(hangUpTerminal(4242, effects({ readStat: () => stat(99000) }))).toEqual([-5001, 4242]);
    expect(startTimeOf(4242, effects({ platform: 'darwin', readStat: () => stat(1) }))).toBeUndefined();
    // The same question before a graceful kill's SIGTERM.
    expect(stillRunning(4242, '81234', effects({ readStat: () => stat(81234) }))).toBe(true);
    expect(stillRunning(4242, '81234', effects({ readStat: () => stat(99000) }))).toBe(false);
    expect(stillRunning(4242, '81234', effects({}))).toBe(false);
    expect(stillRunning(4242, undefined, effects({}))).toBe(true);
    expect(stillRunning(4242, '81234', effects({ platform: 'darwin' }))).toBe(true);
  });

  it.skipIf(process.platform !== 'linux')(
    "leaves a live terminal's program alone when the start time given is not its own",
    async () => {
      const { pty, until } = await start({ file: 'bash', args: ['--norc', '--noprofile', '-i'] });
      await until(/[$#] *$/, 'a bash prompt');
      const own = startTimeOf(pty.pid, systemHangUpEffects);
      expect(own).toMatch(/^\d+$/);
      expect(hangUpTerminal(pty.pid, systemHangUpEffects, `${Number(own) + 1}`)).toEqual([]);
      // Still there to answer: the hang-up went nowhere.
      pty.stdin.write('echo still-$((6*7))\r');
      await until(/still-42/, 'bash answering');
      expect(hangUpTerminal(pty.pid, systemHangUpEffects, own)).toEqual([-pty.pid]);
      expect(await pty.wait()).toEqual({ code: null, signal: 'SIGHUP' });
      pty.dispose();
    },
  );

  it('asks ps on macOS, and does nothing on Windows', () => {
    expect(foregroundGroup(9, effects({ platform: 'darwin', psTpgid: () => '  812\n' }))).toBe(812);
    expect(foregroundGroup(9, effects({ platform: 'darwin' }))).toBeUndefined();
    const win = effects({ platform: 'win32', readStat: () => '9 (x) S 1 9 9 1 9 0' });
    expect(hangUpTerminal(9, win)).toEqual([]);
    expect(win.sent).toEqual([]);
  });
});
