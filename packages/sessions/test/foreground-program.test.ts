import { describe, expect, it } from 'vitest';
import { foregroundProgram } from '../src/foreground-program.js';
import type { HangUpEffects } from '../src/hang-up.js';

const effects = (platform: NodeJS.Platform, stat?: string): HangUpEffects => ({
  platform,
  readStat: () => stat,
  psTpgid: () => undefined,
  kill: () => {},
});

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
  const read = (path: string) => files[path];

  it('names the newest process of the foreground group, not its leader', () => {
    const fg = foregroundProgram(10, true, effects('linux', '10 (bash) S 1 10 10 34816 20 0'), read);
    expect(fg).toEqual({ group: 20, name: 'vim' });
    expect(foregroundProgram(10, false, effects('linux', '10 (bash) S 1 10 10 34816 20 0'), read)).toEqual({
      group: 20,
      name: '',
    });
  });

  it('falls back to the leader, then to no name; nothing off Linux', () => {
    expect(
      foregroundProgram(10, true, effects('linux', '10 (bash) S 1 10 10 34816 20 0'), () => undefined),
    ).toEqual({
      group: 20,
      name: '',
    });
    expect(
      foregroundProgram(10, true, effects('darwin', '10 (bash) S 1 10 10 34816 20 0'), read),
    ).toBeUndefined();
    expect(foregroundProgram(undefined, true, effects('linux'), read)).toBeUndefined();
  });

  it('keeps control characters and brackets out of the name', () => {
    const odd = (path: string) => (path.endsWith('comm') ? 'a]b\x1bc\n' : undefined);
    expect(foregroundProgram(10, true, effects('linux', '10 (b) S 1 10 10 1 20 0'), odd)?.name).toBe('a?b?c');
  });
});
