import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { markerFromCommand, PS_ARGS, PS_ENV_COLUMNS, parsePsOutput, psEnvArgs, psReader } from '../src/ps.js';

describe('ps output with environments (macOS ps -E)', () => {
  it('parses start time, command and the tree marker from the environment', () => {
    const output = [
      '  512     1   512 Ss   Tue Dec  1 11:53:35 2026 sleep 100 TERM=xterm PROCMUX_TREE=41-1-ab12 HOME=/Users/me',
      '  513   512   512 S+   Mon Nov 30 09:05:01 2026 /usr/sbin/cfprefsd agent',
      '    1     0     1 Ss   Mon Nov 30 09:00:00 2026 /sbin/launchd',
    ].join('\n');
    const [escapee, foreign, launchd] = parsePsOutput(output);
    expect(escapee).toEqual({
      pid: 512,
      ppid: 1,
      pgid: 512,
      state: 'S',
      startTime: Math.floor(Date.parse('Tue Dec 1 11:53:35 2026') / 1000),
      marker: '41-1-ab12',
    });
    // Another user's process: ps shows its command but no environment.
    expect(foreign?.marker).toBeUndefined();
    expect(foreign?.startTime).toBeLessThan(escapee!.startTime!);
    expect(launchd?.pid).toBe(1);
  });

  it('takes the last marker: the environment follows the arguments', () => {
    expect(markerFromCommand('env PROCMUX_TREE=fake sh -c x PROCMUX_TREE=real PATH=/bin')).toBe('real');
    expect(markerFromCommand('grep XPROCMUX_TREE=no')).toBeUndefined();
    expect(markerFromCommand('sleep 5')).toBeUndefined();
  });

  it('still reads plain ps output (no start time, no marker)', () => {
    expect(parsePsOutput(' 12 1 12 S')).toEqual([
      { pid: 12, ppid: 1, pgid: 12, state: 'S', startTime: undefined, marker: undefined },
    ]);
  });

  it('asks for environments on macOS and the BSDs only', () => {
    expect(psEnvArgs('darwin')).toEqual(['-A', '-ww', '-E', '-o', PS_ENV_COLUMNS]);
    for (const bsd of ['freebsd', 'openbsd', 'netbsd'] as const) {
      expect(psEnvArgs(bsd)).toEqual(['-A', '-ww', '-e', '-o', PS_ENV_COLUMNS]);
    }
    expect(psEnvArgs('linux')).toBeUndefined();
    expect(psEnvArgs('sunos')).toBeUndefined();
    expect(psEnvArgs('aix')).toBeUndefined();
  });

  it('names the columns it parses: pid, parent, group, state, then start time and command', () => {
    expect(PS_ARGS).toEqual(['-A', '-o', 'pid=,ppid=,pgid=,stat=']);
    expect(PS_ENV_COLUMNS).toBe('pid=,ppid=,pgid=,stat=,lstart=,command=');
  });

  it('parses unpadded columns, one- and two-digit days, any month and day name, and a row with no command', () => {
    const output = [
      '7 1 7 S Tue Dec 1 11:53:35 2026 a PROCMUX_TREE=one',
      '8   7   7   R+   Mon Nov 30 09:05:01 2026 b',
      '9 7 7 S Mon Nov 30 09:05:01 2026',
      '10 7 7 S Sat Aug  1 10:00:00 2026 c',
    ].join('\n');
    expect(parsePsOutput(output)).toEqual([
      {
        pid: 7,
        ppid: 1,
        pgid: 7,
        state: 'S',
        startTime: Date.parse('Tue Dec 1 11:53:35 2026') / 1000,
        marker: 'one',
      },
      {
        pid: 8,
        ppid: 7,
        pgid: 7,
        state: 'R',
        startTime: Date.parse('Mon Nov 30 09:05:01 2026') / 1000,
        marker: undefined,
      },
      {
        pid: 9,
        ppid: 7,
        pgid: 7,
        state: 'S',
        startTime: Date.parse('Mon Nov 30 09:05:01 2026') / 1000,
        marker: undefined,
      },
      {
        pid: 10,
        ppid: 7,
        pgid: 7,
        state: 'S',
        startTime: Date.parse('Sat Aug 1 10:00:00 2026') / 1000,
        marker: undefined,
      },
    ]);
  });

  it('reads a start time that is no date as unknown, and keeps the row', () => {
    const [row] = parsePsOutput('  12     1    12 S    Xyz Abc 99 99:99:99 2026 sleep 5 PROCMUX_TREE=m');
    expect(row).toEqual({ pid: 12, ppid: 1, pgid: 12, state: 'S', startTime: undefined, marker: 'm' });
  });

  it('reads runs of spaces anywhere between the columns and inside the start time', () => {
    expect(parsePsOutput('  14   1   14   S   Tue  Dec  1  11:53:35  2026   x PROCMUX_TREE=m')).toEqual([
      {
        pid: 14,
        ppid: 1,
        pgid: 14,
        state: 'S',
        startTime: Date.parse('Tue Dec 1 11:53:35 2026') / 1000,
        marker: 'm',
      },
    ]);
    expect(parsePsOutput('12 1 12   S')).toEqual([
      { pid: 12, ppid: 1, pgid: 12, state: 'S', startTime: undefined, marker: undefined },
    ]);
  });

  it('skips a line whose columns do not start it', () => {
    expect(parsePsOutput('ps: 12 1 12 S\nwarning 13 1 13 S Tue Dec 1 11:53:35 2026 x')).toEqual([]);
  });

  it('finds a marker that starts the text or follows a tab, and takes its whole value', () => {
    expect(markerFromCommand('PROCMUX_TREE=first-1 x')).toBe('first-1');
    expect(markerFromCommand('sleep 5\tPROCMUX_TREE=tab-2')).toBe('tab-2');
    expect(markerFromCommand('a PROCMUX_TREE= b')).toBeUndefined();
  });

  it('falls back for good to plain columns when this ps refuses the environment option', async () => {
    const calls: string[] = [];
    const read = psReader(['-E'], async (args) => {
      calls.push(args.join(' '));
      if (args.includes('-E')) throw new Error('ps: illegal option -- E');
      return ' 12 1 12 S\n';
    });
    expect(await read()).toBe(' 12 1 12 S\n');
    expect(await read()).toBe(' 12 1 12 S\n');
    expect(calls).toEqual(['-E', PS_ARGS.join(' '), PS_ARGS.join(' ')]);
  });
});

checkLeaksAfterAll();
