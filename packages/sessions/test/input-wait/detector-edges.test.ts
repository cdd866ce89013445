// The detector per platform, the heuristic's guess and the foreground program, at their edges.
import { describe, expect, it } from 'vitest';
import { createInputDetector } from '../../src/input-wait/detector.js';
import { foregroundProgram, type ProcRead } from '../../src/input-wait/foreground-program.js';
import { HEURISTIC_QUIET_MS, heuristicWaiting, promptLine } from '../../src/input-wait/heuristic.js';
import type { ProcEffects } from '../../src/input-wait/kernel-detect.js';
import { pollfds } from './pollfds.js';

/** A process 10 alone on /dev/pts/0, blocked in a read of it (or running), the terminal echoing or not. */
function terminalProcess(reading: boolean, echo: boolean): ProcEffects {
  const files: Record<string, string> = {
    '/proc/10/stat': `10 (prog) ${reading ? 'S' : 'R'} 1 10 10 34816 10 0`,
    '/proc/10/task/10/children': '',
    '/proc/10/syscall': '0 0x0 0x7ffc 0x1 0 0 0 0 0',
  };
  return {
    readFile: async (path) => files[path],
    readlink: async (path) => (path === '/proc/10/fd/0' ? '/dev/pts/0' : undefined),
    readMemory: async () => undefined,
    terminalEcho: async () => echo,
  };
}

/** Process 10 in poll(fds, 2, 200) over /dev/pts/0 and a pipe whose write end it holds: a loop on a short timer. */
function tickingLoop(): ProcEffects {
  const links: Record<string, string> = {
    '/proc/10/fd/0': '/dev/pts/0',
    '/proc/10/fd/14': 'pipe:[900]',
    '/proc/10/fd/15': 'pipe:[900]',
  };
  const files: Record<string, string> = {
    '/proc/10/stat': '10 (prog) S 1 10 10 34816 10 0',
    '/proc/10/task/10/children': '',
    '/proc/10/syscall': '7 0x1000 0x2 0xc8 0 0 0 0 0',
    '/proc/10/fdinfo/14': 'pos:\t0\nflags:\t02000000\n',
    '/proc/10/fdinfo/15': 'pos:\t0\nflags:\t02000001\n',
  };
  return {
    readFile: async (path) => files[path],
    readlink: async (path) => links[path],
    readMemory: async (_pid, address) => (address === 0x1000n ? pollfds([0, 14]) : undefined),
    terminalEcho: async () => true,
    listDir: async (path) => (path === '/proc/10/fd' ? ['0', '14', '15'] : undefined),
  };
}

describe('createInputDetector', () => {
  it('gives the kernel how long the session has been idle: input written a moment ago is not read yet', async () => {
    const detect = createInputDetector({ platform: 'linux', arch: 'x64' }, tickingLoop());
    const quiet = { rootPid: 10, kind: 'pty' as const, prompt: 'In [1]:', quietMs: 5_000 };
    expect(await detect({ ...quiet, idleMs: 5_000 })).toMatchObject({ waiting: true, confidence: 'kernel' });
    expect(await detect({ ...quiet, idleMs: 20 })).toMatchObject({ waiting: false, confidence: 'kernel' });
    // A host's watch that does not say: the output's quiet.
    expect(await detect(quiet)).toMatchObject({ waiting: true });
  });

  // Quiet for a moment only: the heuristic says not waiting, the kernel may say otherwise.
  const facts = { rootPid: 10, kind: 'pty' as const, quietMs: 0, prompt: 'name?' };

  it('macOS and Windows never ask /proc, even when given effects that would answer', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const detect = createInputDetector({ platform, arch: 'x64' }, terminalProcess(true, true));
      expect(await detect(facts)).toEqual({ waiting: false, echo: true, confidence: 'heuristic' });
    }
  });

  it('Linux without effects uses the heuristic', async () => {
    const detect = createInputDetector({ platform: 'linux', arch: 'x64' }, undefined);
    expect(await detect({ ...facts, quietMs: HEURISTIC_QUIET_MS })).toEqual({
      waiting: true,
      echo: true,
      confidence: 'heuristic',
    });
  });

  it("the heuristic reads the cursor's whole line where the quoted prompt leaves a screen's row out", async () => {
    const detect = createInputDetector({ platform: 'darwin', arch: 'arm64' }, undefined);
    const quiet = { rootPid: 10, kind: 'pty' as const, quietMs: HEURISTIC_QUIET_MS };
    // vim's cursor at the start of its text: no prompt to quote, yet an unfinished line shown.
    expect(await detect({ ...quiet, prompt: '', line: '# the first line' })).toMatchObject({ waiting: true });
    expect(await detect({ ...quiet, prompt: '' })).toMatchObject({ waiting: false });
    expect(await detect({ ...quiet, prompt: 'Password:', line: 'Password:' })).toMatchObject({ echo: false });
  });

  it("the kernel's not-waiting is an answer: echo on, confidence kernel, whatever the terminal says", async () => {
    const detect = createInputDetector({ platform: 'linux', arch: 'x64' }, terminalProcess(false, false));
    expect(await detect({ ...facts, quietMs: 10_000 })).toEqual({
      waiting: false,
      echo: true,
      confidence: 'kernel',
    });
  });
});

describe('heuristicWaiting', () => {
  it('quiet for exactly the quiet time with an unfinished line is waiting', () => {
    expect(heuristicWaiting({ quietMs: HEURISTIC_QUIET_MS, prompt: 'name?' }).waiting).toBe(true);
    expect(heuristicWaiting({ quietMs: HEURISTIC_QUIET_MS - 1, prompt: 'name?' }).waiting).toBe(false);
  });

  it('an unfinished line of blanks is no prompt', () => {
    expect(heuristicWaiting({ quietMs: 10_000, prompt: '   ' }).waiting).toBe(false);
  });
});

describe('promptLine', () => {
  it('after a progress bar rewritten with carriage returns, the prompt is the last rewrite', () => {
    expect(promptLine('50%\rPassword: \r')).toBe('Password:');
  });

  it('carriage returns after the prompt are not a rewrite', () => {
    expect(promptLine('Password: \r\r')).toBe('Password:');
  });
});

describe('foregroundProgram at the edges', () => {
  const leader =
    (tpgid: number): ProcRead =>
    (path) =>
      path === '/proc/10/stat'
        ? `10 (bash) S 1 10 10 34816 ${tpgid} 0`
        : path === '/proc/10/comm'
          ? 'bash\n'
          : undefined;

  it('tpgid 0 is no foreground group', () => {
    expect(foregroundProgram(10, true, 'linux', leader(0))).toBeUndefined();
  });

  it('names the newest of two children still in the group', () => {
    const files: Record<string, string> = {
      '/proc/10/stat': '10 (sh) S 1 10 10 34816 10 0',
      '/proc/10/task/10/children': '30 32',
      '/proc/30/stat': '30 (old) S 10 10 10 34816 10 0',
      '/proc/32/stat': '32 (new) S 10 10 10 34816 10 0',
      '/proc/30/comm': 'old\n',
      '/proc/32/comm': 'new\n',
    };
    expect(foregroundProgram(10, true, 'linux', (p) => files[p])?.name).toBe('new');
  });

  it('a child that exited (no stat) is passed over', () => {
    const files: Record<string, string> = {
      '/proc/10/stat': '10 (sh) S 1 10 10 34816 10 0',
      '/proc/10/task/10/children': '30 32',
      '/proc/30/stat': '30 (vim) S 10 10 10 34816 10 0',
      '/proc/30/comm': 'vim\n',
    };
    expect(foregroundProgram(10, true, 'linux', (p) => files[p])?.name).toBe('vim');
  });

  it('looks 8 levels down the group and no further', () => {
    // 10 -> 11 -> ... -> 20, one group: the name is 18's, 8 below the leader.
    const files: Record<string, string> = { '/proc/10/stat': '10 (sh) S 1 10 10 34816 10 0' };
    for (let pid = 10; pid <= 20; pid++) {
      files[`/proc/${pid}/stat`] = `${pid} (p${pid}) S ${pid - 1} 10 10 34816 10 0`;
      files[`/proc/${pid}/comm`] = `p${pid}\n`;
      if (pid < 20) files[`/proc/${pid}/task/${pid}/children`] = `${pid + 1}`;
    }
    expect(foregroundProgram(10, true, 'linux', (p) => files[p])?.name).toBe('p18');
  });
});
