// A one_shot that left background jobs says what ended with it (issue 33 item 7).
import { readFileSync } from 'node:fs';
import { descendantsOf, isAlive, processTable, waitFor, withoutUsage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { endedNote } from '../src/background-report.js';
import { closingHarness, type Harness, idOf } from './helpers.js';

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

  it('names each ended process, counting them; for a session other than a one_shot, the foreground cure', () => {
    const ended = [
      { pid: 4242, command: 'sleep 30' },
      { pid: 4244, command: 'npm run dev' },
    ];
    expect(endedNote(ended)).toBe(
      "Ended with it: 2 background processes (sleep 30, npm run dev). Use mode 'daemon' for a program that must keep running.",
    );
    expect(endedNote(ended.slice(0, 1), 'session')).toBe(DAEMON_NOTE);
  });
});

const DAEMON_NOTE =
  'Ended with it: 1 background process (sleep 30), left running when its own process exited. ' +
  "A session lasts as long as its own process: run the program itself in the foreground (no '&', " +
  "nohup or setsid; for example 'postgres -D DIR', not 'pg_ctl start').";

/** The daemon's poll once its own process has exited (the start reply may come before). */
async function pollEnded(h: Harness, id: string) {
  await waitFor(() => h.sessions.get(id)?.metadata().state === 'exited', 10_000, `${id} exited`);
  return h.proc({ action: 'poll', session_id: id });
}

// A launcher that backgrounds the server and exits (`pg_ctl start`) ends the session, and the
// server with it: the reply must say so, not only "exited with code 0".
describe('a daemon whose own process exits while something it started runs', () => {
  it.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
    'names what ended with it, even a setsid env -i escapee, and leaves nothing (cgroup)',
    async () => {
      const h = harness();
      const id = idOf(await h.exec({ command: '(setsid env -i sleep 30 &); echo launched', mode: 'daemon' }));
      const r = await pollEnded(h, id);
      expect(r.text).toContain(`${DAEMON_NOTE}\nProcess exited with code 0.`);
      expect(r.data.ended).toEqual([{ pid: expect.any(Number), command: 'sleep 30' }]);
      expect(isAlive(r.data.ended![0]!.pid)).toBe(false);
      // Said again to a later reader: it is part of how the session ended.
      const again = await h.proc({ action: 'poll', session_id: id });
      expect(again.text).toContain(DAEMON_NOTE);
    },
  );

  it.runIf(posix)('names what ended with it under marker containment too', async () => {
    const h = harness({}, { containment: 'marker' });
    const id = idOf(await h.exec({ command: 'sleep 30 & echo launched', mode: 'daemon' }));
    const r = await pollEnded(h, id);
    expect(r.text).toContain(DAEMON_NOTE);
    expect(isAlive(r.data.ended![0]!.pid)).toBe(false);
  });

  it.runIf(posix)('says nothing when nothing was left, or when it was killed', async () => {
    const h = harness();
    const alone = idOf(await h.exec({ command: 'echo hi', mode: 'daemon' }));
    const r = await pollEnded(h, alone);
    expect(r.text).not.toContain('Ended with it');
    expect(r.data.ended).toBeUndefined();
    const killed = idOf(await h.exec({ command: 'sleep 30 & sleep 30', mode: 'daemon' }));
    const k = await h.proc({ action: 'kill', session_id: killed });
    expect(k.text).not.toContain('Ended with it');
    expect(k.data.ended).toBeUndefined();
  });

  it.runIf(posix)('says nothing with reportBackgroundJobs off (a remote host), as a one_shot', async () => {
    const h = harness({ reportBackgroundJobs: false });
    const id = idOf(await h.exec({ command: 'sleep 30 & echo launched', mode: 'daemon' }));
    const r = await pollEnded(h, id);
    expect(r.text).not.toContain('Ended with it');
  });
});
