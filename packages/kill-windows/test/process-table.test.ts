import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { readProcessTable } from '../src/platform.js';
import { POWERSHELL_ARGS, parseProcessTable, powershellPath } from '../src/process-table.js';
import { treeIn } from '../src/sweep.js';

describe('the Windows process table', () => {
  it('parses pid, parent pid and FILETIME exactly, skipping anything else', () => {
    // 133_780_000_000_000_123 ticks of 100 ns is beyond 2^53: parsed exactly, then cut to ms.
    const output = '0 0 0\r\n4 0 133780000000000000\r\n  812 4 133780000000000123\r\nWARNING: x\r\n\r\n';
    expect(parseProcessTable(output)).toEqual([
      { pid: 0, ppid: 0, created: 0 },
      { pid: 4, ppid: 0, created: 13_378_000_000_000 },
      { pid: 812, ppid: 4, created: 13_378_000_000_000 },
    ]);
  });

  it('runs PowerShell from under SystemRoot with a constant, culture-free query', () => {
    expect(powershellPath({ SystemRoot: 'D:\\Win' })).toBe(
      'D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    );
    expect(powershellPath({ SystemRoot: 'relative' })).toBe(
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    );
    expect(POWERSHELL_ARGS.slice(0, 3)).toEqual(['-NoProfile', '-NonInteractive', '-NoLogo']);
    expect(POWERSHELL_ARGS.at(-1)).toContain('Get-CimInstance -ClassName Win32_Process');
    expect(POWERSHELL_ARGS.at(-1)).toContain('ToFileTimeUtc()');
  });

  it('rejects a failed or empty query instead of reporting an empty system', async () => {
    const table = await readProcessTable({}, async () => ({
      code: 0,
      stdout: '8 4 133780000000000000\n',
      stderr: '',
    }));
    expect(table).toEqual([{ pid: 8, ppid: 4, created: 13_378_000_000_000 }]);
    await expect(
      readProcessTable({}, async () => ({ code: 1, stdout: '', stderr: 'denied' })),
    ).rejects.toThrow(/exit 1.*denied/);
    await expect(readProcessTable({}, async () => ({ code: 0, stdout: '', stderr: '' }))).rejects.toThrow(
      /query failed/,
    );
  });
});

describe('treeIn: a parent pid means the latest process with that pid created before the child', () => {
  const root = { pid: 10, ppid: 1, created: 100 };

  it('follows parent chains through processes that only earlier snapshots knew', () => {
    // 11 died; its child 12 still names it.
    const table = [{ pid: 12, ppid: 11, created: 120 }];
    expect(treeIn(table, [root, { pid: 11, ppid: 10, created: 110 }], 1)).toEqual(table);
    expect(treeIn(table, [root], 1)).toEqual([]);
  });

  it('never takes itself, System, the idle process or a process without a creation time', () => {
    const table = [
      root,
      { pid: 0, ppid: 10, created: 0 },
      { pid: 4, ppid: 10, created: 200 },
      { pid: 5, ppid: 10, created: 200 },
      { pid: 6, ppid: 10, created: 0 },
    ];
    expect(treeIn(table, [root], 5).map((p) => p.pid)).toEqual([10]);
  });

  it('a child created in the same millisecond as its parent is still its child', () => {
    expect(treeIn([root, { pid: 11, ppid: 10, created: 100 }], [root], 1).map((p) => p.pid)).toEqual([
      10, 11,
    ]);
  });
});

checkLeaksAfterAll();
