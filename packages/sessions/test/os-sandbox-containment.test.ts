// A sandboxed session (bubblewrap) is held like any native one: it joins the session's cgroup
// (its first process writes itself into cgroup.procs before it execs the launcher), so the
// escapee inside leaves 0 after kill(); where no cgroup is made, bwrap's own pid namespace
// (--unshare-pid --die-with-parent) holds it and metadata says 'pid-namespace'.
import { readFileSync } from 'node:fs';
import { hostCgroupLayout, SessionCgroup } from '@procmux/supervisor';
import {
  assertNoLeakedProcesses,
  disposeAfterEach,
  makeWorkspace,
  processTable,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

const track = disposeAfterEach<ProcessSessions>();
const counts: Record<string, number> = {};
afterAll(async () => {
  console.log(`sandboxed escapees left: ${JSON.stringify(counts)}`);
  await assertNoLeakedProcesses();
});

const noCgroup = (() => {
  const layout = process.platform === 'linux' ? hostCgroupLayout() : undefined;
  if (!layout) return 'no cgroup hierarchy visible';
  try {
    void SessionCgroup.create({ layout, id: `probe-sandbox-${process.pid}` }).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
})();

function tag(): string {
  return `30${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}`;
}
const escapee = (sleep: string) => `(setsid sh -c 'exec env -i sleep ${sleep}' &); echo up; sleep 60`;
/** Waits until the escapee runs as an orphan adopted by the sandbox's init (bwrap, pid 1 inside). */
async function escaped(sleep: string): Promise<number> {
  const pid = await waitFor(
    () => {
      const table = processTable();
      const escapee = table.find((p) => p.state !== 'Z' && p.command === `sleep ${sleep}`);
      const adopted = table.find((p) => p.pid === escapee?.ppid)?.command.startsWith('bwrap') === true;
      return adopted ? escapee!.pid : undefined;
    },
    15_000,
    'the escapee to be orphaned inside the sandbox',
  );
  return pid!;
}
function countAndClear(name: string, sleep: string): number {
  const left = processTable().filter((p) => p.state !== 'Z' && p.command === `sleep ${sleep}`);
  counts[name] = left.length;
  for (const { pid } of left) process.kill(pid, 'SIGKILL');
  return left.length;
}

describe.skipIf(process.platform !== 'linux')('a sandboxed session is contained', () => {
  it.skipIf(noCgroup !== undefined)(
    'joins its cgroup: the escapee inside leaves 0 after kill()',
    async () => {
      const sessions = track(createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true }));
      const sleep = tag();
      const s = await sessions.start({ command: escapee(sleep), shell: true });
      expect(s.metadata()).toMatchObject({ containment: 'cgroup', sandbox: expect.anything() });
      const pid = await escaped(sleep);
      // Inside bwrap's namespaces, and still in the session's cgroup.
      expect(readFileSync(`/proc/${pid}/cgroup`, 'utf8')).toContain(`/procmux-${process.pid}-${s.id}`);
      await s.kill();
      expect(countAndClear('sandbox cgroup kill()', sleep)).toBe(0);
    },
  );

  it("without a cgroup, bwrap's pid namespace holds it: 'pid-namespace', 0 left after kill()", async () => {
    const sessions = track(
      createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true, containment: 'pid-namespace' }),
    );
    const sleep = tag();
    const s = await sessions.start({ command: escapee(sleep), shell: true });
    expect(s.metadata()).toMatchObject({ containment: 'pid-namespace', usage: null });
    await escaped(sleep);
    await s.kill();
    expect(countAndClear('sandbox pid-namespace kill()', sleep)).toBe(0);
  });
});
