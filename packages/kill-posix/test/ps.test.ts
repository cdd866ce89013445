import { checkLeaksAfterAll, requireTool } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { PS_PATH, parsePsOutput, runPs } from '../src/ps.js';

describe('parsePsOutput', () => {
  it('parses macOS ps output: padded columns, state letters with flags', () => {
    const output = [
      '    1     0     1 Ss',
      '  412     1   412 S',
      '  500   412   412 Z+',
      '  501   500   412 R+',
      '',
    ].join('\n');
    expect(parsePsOutput(output)).toEqual([
      { pid: 1, ppid: 0, pgid: 1, state: 'S', startTime: undefined, marker: undefined },
      { pid: 412, ppid: 1, pgid: 412, state: 'S', startTime: undefined, marker: undefined },
      { pid: 500, ppid: 412, pgid: 412, state: 'Z', startTime: undefined, marker: undefined },
      { pid: 501, ppid: 500, pgid: 412, state: 'R', startTime: undefined, marker: undefined },
    ]);
  });

  it('skips lines that do not have the shape', () => {
    expect(parsePsOutput('  PID  PPID  PGID STAT\nps: warning\n 12 1 12 S\n 13 x 13 S')).toEqual([
      { pid: 12, ppid: 1, pgid: 12, state: 'S', startTime: undefined, marker: undefined },
    ]);
  });
});

// Under CI a missing ps fails the file (requireTool), never skips it.
describe.skipIf(requireTool('ps') !== undefined)(`runPs (needs ${PS_PATH})`, () => {
  it('lists ourselves with our parent when run for real', async () => {
    const table = parsePsOutput(await runPs());
    expect(table.find((e) => e.pid === process.pid)?.ppid).toBe(process.ppid);
  });

  it('rejects when ps cannot run', async () => {
    await expect(runPs('/nonexistent/ps')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

checkLeaksAfterAll();
