// A one_shot that left background jobs says what ended with it (issue 33 item 7).
import { isAlive, withoutUsage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { endedNote, parseJobs } from '../src/background-report.js';
import { closingHarness } from './helpers.js';

const harness = closingHarness();
const posix = process.platform !== 'win32';

describe('a one_shot that leaves background jobs', () => {
  it.runIf(posix)('names the background process that ended with it, and leaves nothing of it', async () => {
    const h = harness();
    const r = await h.exec({ command: 'sleep 30 & echo started' });
    expect(withoutUsage(r.text)).toBe(
      "started\n\nEnded with it: 1 background process (sleep 30). Use mode 'daemon' for a program that must keep running.\nProcess exited with code 0.",
    );
    expect(r.data.ended).toHaveLength(1);
    expect(r.data.ended![0]!.command).toBe('sleep 30');
    expect(isAlive(r.data.ended![0]!.pid)).toBe(false);
  });

  it.runIf(posix)('says nothing when nothing was left running', async () => {
    const h = harness();
    const r = await h.exec({ command: 'sleep 0.01 & wait; echo done' });
    expect(withoutUsage(r.text)).toBe('done\n\nProcess exited with code 0.');
    expect(r.data.ended).toBeUndefined();
  });

  // With a cgroup per session (Linux as root) such a job ends with the run: see the next test.
  it.runIf(posix)(
    'names a job that outlived it by ignoring the hang-up, with its pid (marker containment)',
    async () => {
      const h = harness({}, { containment: 'marker' });
      const r = await h.exec({ command: 'trap "" HUP; sleep 30 & echo started' });
      const survivor = r.data.survivors?.[0];
      try {
        expect(survivor?.command).toBe('sleep 30');
        expect(r.text).toContain(
          `Still running after it: 1 background process (sleep 30, pid ${survivor!.pid})`,
        );
        expect(isAlive(survivor!.pid)).toBe(true);
      } finally {
        // Outside procmux's control by then: this test ends it itself.
        if (survivor) process.kill(survivor.pid, 'SIGKILL');
      }
    },
  );

  it.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
    'ends a job that ignores the hang-up with the one_shot when the session has a cgroup',
    async () => {
      const h = harness();
      const r = await h.exec({ command: 'trap "" HUP; sleep 30 & echo started' });
      expect(r.data.survivors).toBeUndefined();
      expect(r.text).toContain('Ended with it: 1 background process (sleep 30).');
    },
  );

  it('reads running jobs from jobs -l, once each, and not finished ones', () => {
    const text = [
      '[1]  4242 Running                 sleep 30 &',
      '[2]- 4243 Done                    true',
      '[3]+ 4244 Running                 npm run dev &',
      '[3]+ 4244 Running                 npm run dev &',
      '',
    ].join('\n');
    expect(parseJobs(text)).toEqual([
      { pid: 4242, command: 'sleep 30' },
      { pid: 4244, command: 'npm run dev' },
    ]);
    expect(endedNote(parseJobs(text))).toBe(
      "Ended with it: 2 background processes (sleep 30, npm run dev). Use mode 'daemon' for a program that must keep running.",
    );
  });
});
