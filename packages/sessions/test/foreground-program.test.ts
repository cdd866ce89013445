import { describe, expect, it } from 'vitest';
import {
  foregroundCommandLine,
  foregroundProgram,
  type ProcRead,
} from '../src/input-wait/foreground-program.js';

/** The /proc files given, plus the terminal leader's stat line (10's). */
const world =
  (files: Record<string, string>, leaderStat?: string): ProcRead =>
  (path) =>
    path === '/proc/10/stat' ? leaderStat : files[path];

describe('foregroundProgram (pure)', () => {
  // The terminal's leader 10 (bash) has job 20 (sh -c 'vim f') in the foreground: sh leads the
  // group, vim (30) is its child in the same group; 31 is a child of vim in a group of its own.
  const files: Record<string, string> = {
    '/proc/20/task/20/children': '30 ',
    '/proc/30/task/30/children': '31',
    '/proc/30/stat': '30 (vim) S 20 20 10 34816 20 0',
    '/proc/31/stat': '31 (x (y)) S 30 31 10 34816 20 0',
    '/proc/20/comm': 'sh\n',
    '/proc/30/comm': 'vim\n',
  };
  const bash = '10 (bash) S 1 10 10 34816 20 0';

  it('names the newest process of the foreground group, not its leader', () => {
    expect(foregroundProgram(10, true, 'linux', world(files, bash))).toEqual({ group: 20, name: 'vim' });
    expect(foregroundProgram(10, false, 'linux', world(files, bash))).toEqual({ group: 20, name: '' });
  });

  it('reads tpgid after the command name, even one with spaces and parentheses', () => {
    const odd = '10 (my (odd) name) S 1 10 10 34816 20 0';
    expect(foregroundProgram(10, false, 'linux', world(files, odd))).toEqual({ group: 20, name: '' });
  });

  it('falls back to the leader, then to no name; nothing off Linux, nor without a terminal', () => {
    expect(foregroundProgram(10, true, 'linux', world({}, bash))).toEqual({ group: 20, name: '' });
    expect(foregroundProgram(10, true, 'darwin', world(files, bash))).toBeUndefined();
    expect(foregroundProgram(undefined, true, 'linux', world(files, bash))).toBeUndefined();
    expect(foregroundProgram(10, true, 'linux', world(files))).toBeUndefined();
    // tpgid -1: no controlling terminal.
    expect(foregroundProgram(10, true, 'linux', world(files, '10 (x) S 1 10 10 0 -1 0'))).toBeUndefined();
  });

  it("reads the named program's command line: argv split at NUL", () => {
    const withLine = (cmdline?: string) =>
      world({ ...files, ...(cmdline === undefined ? {} : { '/proc/30/cmdline': cmdline }) }, bash);
    expect(foregroundCommandLine(10, 'linux', withLine('node\0'))).toEqual(['node']);
    expect(foregroundCommandLine(10, 'linux', withLine('vim\0-u\0NONE\0my file\0'))).toEqual([
      'vim',
      '-u',
      'NONE',
      'my file',
    ]);
    // A process gone, a kernel thread's empty cmdline, no terminal, not Linux: unknown.
    expect(foregroundCommandLine(10, 'linux', withLine())).toBeUndefined();
    expect(foregroundCommandLine(10, 'linux', withLine(''))).toBeUndefined();
    expect(foregroundCommandLine(10, 'linux', world({ '/proc/30/cmdline': 'node\0' }))).toBeUndefined();
    expect(foregroundCommandLine(10, 'darwin', withLine('node\0'))).toBeUndefined();
  });

  it('keeps control characters and brackets out of the name', () => {
    const odd: ProcRead = (path) =>
      path === '/proc/10/stat' ? '10 (b) S 1 10 10 1 20 0' : path.endsWith('comm') ? 'a]b\x1bc\n' : undefined;
    expect(foregroundProgram(10, true, 'linux', odd)?.name).toBe('a?b?c');
  });
});
