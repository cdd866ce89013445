// A one_shot that left background jobs says what ended with it (issue 33 item 7).
import { readFileSync } from 'node:fs';
import { descendantsOf, isAlive, processTable, waitFor, withoutUsage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { endedNote } from '../src/background-report.js';
import { closingHarness, type Harness } from './helpers.js';

const harness = closingHarness();
// The tree is named from /proc.
const posix = process.platform === 'linux';

/** The one running session's pid, once it runs `program` itself or as a child. */
async function runningProgram(
  h: Harness,
  program: string,
): Promise<{ sessionPid: number; programPid: number }> {
  const found = await waitFor(
    () => {
      const pid = h.sessions.list()[0]?.metadata().pid;
      if (pid === undefined || pid === null) return undefined;
      const table = processTable();
      const own = table.find((p) => p.pid === pid);
      const found = [own, ...descendantsOf(pid, table)].find((p) => p?.command.split(' ')[0] === program);
      return found ? { sessionPid: pid, programPid: found.pid } : undefined;
    },
    10_000,
    `${program} running in the one_shot`,
  );
  return found!;
}

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

  // A line with a background job runs with job control (so the hang-up as the shell exits
  // does not end its jobs unseen): bash then prints its notice of a job that finished, on
  // stderr, before or after `done` (bash may defer it, and two pipes are read apart).
  it.runIf(posix)('says nothing when nothing was left running', async () => {
    const h = harness();
    const r = await h.exec({ command: 'sleep 0.01 & wait; echo done' });
    expect(withoutUsage(r.text).replace(/^\[1\]\+ +Done +sleep 0\.01\n/m, '')).toBe(
      'done\n\nProcess exited with code 0.',
    );
    expect(r.data.ended).toBeUndefined();
    expect(r.data.survivors).toBeUndefined();
  });

  it.runIf(posix)(
    'ends a job that ignores the hang-up with the one_shot, naming it (marker containment)',
    async () => {
      const h = harness({}, { containment: 'marker' });
      const r = await h.exec({ command: 'trap "" HUP; sleep 30 & echo started' });
      expect(r.data.survivors).toBeUndefined();
      expect(r.text).toContain('Ended with it: 1 background process (sleep 30).');
      expect(isAlive(r.data.ended![0]!.pid)).toBe(false);
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

  // A probe in the shell (an EXIT trap) stopped bash from exec'ing the last command: the pid
  // was bash's, and a signal to the program came back as bash's exit 128+n.
  it.runIf(posix)("runs a plain command as the one_shot's own process (bash execs it)", async () => {
    const h = harness();
    const pending = h.tools.exec.run({ command: 'sleep 5' });
    const { sessionPid, programPid } = await runningProgram(h, 'sleep');
    expect(programPid).toBe(sessionPid);
    expect(readFileSync(`/proc/${sessionPid}/comm`, 'utf8').trim()).toBe('sleep');
    process.kill(sessionPid, 'SIGKILL');
    await pending;
  });

  it.runIf(posix)('reports a command killed by SIGTERM as killed by SIGTERM, not as exit 143', async () => {
    const h = harness();
    const pending = h.tools.exec.run({ command: 'sleep 5' });
    const { programPid } = await runningProgram(h, 'sleep');
    process.kill(programPid, 'SIGTERM');
    const r = await pending;
    expect(withoutUsage(r.text)).toBe('(no output)\n\nProcess killed by SIGTERM.');
    expect(r.data.ended).toBeUndefined();
  });

  it('names each ended process, counting them', () => {
    const ended = [
      { pid: 4242, command: 'sleep 30' },
      { pid: 4244, command: 'npm run dev' },
    ];
    expect(endedNote(ended)).toBe(
      "Ended with it: 2 background processes (sleep 30, npm run dev). Use mode 'daemon' for a program that must keep running.",
    );
  });
});
