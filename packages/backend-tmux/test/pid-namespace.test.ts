// containment: 'pid-namespace' on the tmux backend: each pane's program runs in a pid
// namespace of its own, so a daemon that left the tree and cleared its environment dies with
// the pane; the session says so in metadata, signals reach the program, codes are its own.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { hostPidNamespaceSupport, namespacedProgramPid, PID_NAMESPACE_INIT } from '@procmux/supervisor';
import { processTable, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createTmuxBackend, type TmuxBackend } from '../src/index.js';
import { stateDir, teardown } from './helpers.js';

let sessions: ProcessSessions | undefined;
let tmux: TmuxBackend | undefined;

afterEach(async () => {
  await sessions?.dispose();
  await tmux?.killServer();
  await teardown();
});

const support = process.platform === 'linux' ? await hostPidNamespaceSupport() : undefined;

function setup(dir = stateDir()) {
  tmux = createTmuxBackend({ dir, containment: 'pid-namespace' });
  sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: tmux });
  return sessions;
}

const tag = () => `30${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}`;
const sleeping = (n: string) => processTable().filter((p) => p.state !== 'Z' && p.command === `sleep ${n}`);

describe.skipIf(!support?.ok)("tmux panes with containment: 'pid-namespace'", () => {
  it('kill() leaves no escapee that cleared its environment; metadata says pid-namespace', async () => {
    const n = tag();
    const s = await setup().start({
      command: `(setsid sh -c 'exec env -i sleep ${n}' &); echo up; sleep 60`,
      shell: true,
      pty: true,
    });
    expect(s.metadata().containment).toBe('pid-namespace');
    // Orphaned: adopted by the namespace's init, out of every convention a tree kill follows.
    await waitFor(
      () => {
        const table = processTable();
        const escapee = table.find((p) => p.state !== 'Z' && p.command === `sleep ${n}`);
        return table.find((p) => p.pid === escapee?.ppid)?.command.includes(PID_NAMESPACE_INIT);
      },
      15_000,
      'the escapee to be orphaned',
    );
    await s.kill();
    const left = sleeping(n);
    for (const { pid } of left) process.kill(pid, 'SIGKILL');
    console.log(`tmux pid-namespace escapees left after kill(): ${left.length}`);
    expect(left.length).toBe(0);
  });

  it('signals reach the program and its exit code is its own', async () => {
    const s = await setup().start({
      command: 'python3',
      args: [
        '-u',
        '-c',
        'import signal,time\nsignal.signal(signal.SIGUSR1, lambda *_: exit(5))\nprint("ready")\ntime.sleep(60)',
      ],
      pty: true,
    });
    let seen = '';
    while (!seen.includes('ready')) seen += (await s.poll({ timeoutMs: 2_000 })).stdout;
    await s.signal('SIGUSR1');
    expect(await s.wait({ timeoutMs: 15_000 })).toMatchObject({ state: 'exited', exitCode: 5 });
  });

  it("a SIGKILL sent from outside to the pane's program reads as SIGKILL, not exit 1; its own exit 1 stays a code", async () => {
    const dir = stateDir();
    const s = await setup(dir).start({ command: 'sleep', args: ['300'], pty: true });
    const read = (path: string) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    };
    let program: number | undefined;
    await waitFor(
      () => {
        program = namespacedProgramPid(s.pid!, read);
        return program !== undefined && read(`/proc/${program}/cmdline`)?.startsWith('sleep\0') === true;
      },
      15_000,
      'sleep inside the namespace',
    );
    process.kill(program!, 'SIGKILL');
    expect(await s.wait({ timeoutMs: 15_000 })).toEqual({
      exitCode: null,
      signal: 'SIGKILL',
      state: 'killed',
    });
    expect((await s.poll()).stdout).not.toContain('unshare');
    const own = await sessions!.start({ command: 'exit 1', shell: true, pty: true });
    expect(await own.wait({ timeoutMs: 15_000 })).toEqual({ exitCode: 1, signal: null, state: 'exited' });
    // The waiter's status files went with their panes.
    expect(readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.waiter'))).toEqual([]);
  });
});
