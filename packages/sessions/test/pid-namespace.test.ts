// containment: 'pid-namespace', forced on this host (which could make a cgroup): what a host
// without a writable cgroup gets. The escapee a tree kill cannot find dies with the namespace
// after kill() and dispose(); exit codes and signals are the program's own; a PTY REPL in it
// keeps its terminal, answers Ctrl-C, and its input wait is still seen.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostPidNamespaceSupport, namespacedProgramPid, PID_NAMESPACE_INIT } from '@procmux/supervisor';
import {
  assertNoLeakedProcesses,
  descendantsOf,
  disposeAfterEach,
  makeWorkspace,
  processTable,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();
const counts: Record<string, number> = {};
afterAll(async () => {
  console.log(`pid-namespace escapees left: ${JSON.stringify(counts)}`);
  await assertNoLeakedProcesses();
});

const support = await hostPidNamespaceSupport();
if (!support.ok) console.info(`[procmux] pid-namespace session tests not run: ${support.reason}`);

function tag(): string {
  return `30${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}`;
}
const escapee = (sleep: string) => `(setsid sh -c 'exec env -i sleep ${sleep}' &); echo up; sleep 60`;
function running(text: string): number[] {
  return processTable()
    .filter((p) => p.state !== 'Z' && p.command === text)
    .map((p) => p.pid);
}
/** Waits until the escapee runs as an orphan: its subshell gone, adopted by the namespace's init. */
function escaped(sleep: string): Promise<unknown> {
  return waitFor(
    () => {
      const table = processTable();
      const escapee = table.find((p) => p.state !== 'Z' && p.command === `sleep ${sleep}`);
      const parent = table.find((p) => p.pid === escapee?.ppid);
      return parent?.command.includes(PID_NAMESPACE_INIT) === true;
    },
    10_000,
    'the escapee to be orphaned',
  );
}
function countAndClear(name: string, sleep: string): number {
  const left = running(`sleep ${sleep}`);
  counts[name] = left.length;
  for (const pid of left) process.kill(pid, 'SIGKILL');
  return left.length;
}

async function pollUntil(session: ProcessSession, pattern: RegExp, deadlineMs = 20_000): Promise<string> {
  let seen = '';
  const deadline = Date.now() + deadlineMs;
  while (!pattern.test(seen)) {
    if (Date.now() > deadline) throw new Error(`never saw ${pattern} in:\n${seen}`);
    const result = await session.poll({ timeoutMs: 2_000 });
    seen += result.stdout;
    if (result.state !== 'running' && !pattern.test(seen))
      throw new Error(`session ${result.state}:\n${seen}`);
  }
  return seen;
}

const pidNamespace = () => track(createProcessSessions({ cwd: workspace, containment: 'pid-namespace' }));

describe.skipIf(!support.ok)("containment: 'pid-namespace' (Linux)", () => {
  it('says pid-namespace in metadata; the program runs as pid 2 or 3 of its namespace, usage is null', async () => {
    const s = await pidNamespace().start({ command: 'echo "pid $$"', shell: true });
    expect(await s.wait({ timeoutMs: 10_000 })).toEqual({ exitCode: 0, signal: null, state: 'exited' });
    // 1 is the init; the init's own sleep may be born before the program (2 or 3, never a host pid).
    expect((await s.poll()).stdout).toMatch(/^pid [23]$/m);
    expect(s.metadata()).toMatchObject({ containment: 'pid-namespace', usage: null, resourceLimits: {} });
  });

  it('leaves no escapee that cleared its environment after kill()', async () => {
    const sleep = tag();
    const s = await pidNamespace().start({ command: escapee(sleep), shell: true });
    await escaped(sleep);
    await s.kill();
    expect(countAndClear('pid-namespace kill()', sleep)).toBe(0);
  });

  it('leaves no escapee after dispose(), on pipes and on a PTY', async () => {
    const sessions = createProcessSessions({ cwd: workspace, containment: 'pid-namespace' });
    const [a, b] = [tag(), tag()];
    const pipe = await sessions.start({ command: escapee(a), shell: true });
    const pty = await sessions.start({ command: escapee(b), shell: true, pty: true });
    expect([pipe.metadata().containment, pty.metadata().containment]).toEqual([
      'pid-namespace',
      'pid-namespace',
    ]);
    await escaped(a);
    await escaped(b);
    await sessions.dispose();
    expect(
      countAndClear('pid-namespace dispose()', a) + countAndClear('pid-namespace dispose() pty', b),
    ).toBe(0);
  });

  it('leaves no escapee once the program exits on its own', async () => {
    const sleep = tag();
    const s = await pidNamespace().start({
      command: `(setsid sh -c 'exec env -i sleep ${sleep}' &); sleep 0.2; exit 3`,
      shell: true,
    });
    expect(await s.wait({ timeoutMs: 10_000 })).toEqual({ exitCode: 3, signal: null, state: 'exited' });
    await waitFor(() => running(`sleep ${sleep}`).length === 0, 10_000, 'the namespace to be gone');
    expect(countAndClear('pid-namespace own exit', sleep)).toBe(0);
  });

  it('reports exit codes and signals exactly: exit 130 is a code, death by SIGINT a signal', async () => {
    const sessions = pidNamespace();
    const cases = [
      ['exit 130', { exitCode: 130, signal: null, state: 'exited' }],
      ['exit 137', { exitCode: 137, signal: null, state: 'exited' }],
      ['exit 1', { exitCode: 1, signal: null, state: 'exited' }],
      ['kill -KILL $$', { exitCode: null, signal: 'SIGKILL', state: 'killed' }],
      ['kill -INT $$', { exitCode: null, signal: 'SIGINT', state: 'killed' }],
      ['kill -TERM $$', { exitCode: null, signal: 'SIGTERM', state: 'killed' }],
    ] as const;
    for (const [command, end] of cases) {
      for (const pty of [false, true]) {
        const s = await sessions.start({ command, shell: true, pty });
        expect({ command, pty, end: await s.wait({ timeoutMs: 10_000 }) }).toEqual({ command, pty, end });
      }
    }
  });

  it('a kill sent from outside to the program reads as that signal (SIGKILL too), with nothing added to its output', async () => {
    const sessions = pidNamespace();
    const read = (path: string) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    };
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      for (const pty of [false, true]) {
        const s = await sessions.start({ command: 'sleep', args: ['300'], pty });
        let program: number | undefined;
        await waitFor(
          () => {
            program = namespacedProgramPid(s.pid!, read);
            return program !== undefined && read(`/proc/${program}/cmdline`)?.startsWith('sleep\0') === true;
          },
          10_000,
          'sleep inside the namespace',
        );
        process.kill(program!, signal);
        const end = await s.wait({ timeoutMs: 10_000 });
        expect({ signal, pty, end }).toEqual({
          signal,
          pty,
          end: { exitCode: null, signal, state: 'killed' },
        });
        const out = await s.poll();
        expect(out.stdout + out.stderr).not.toContain('unshare');
      }
    }
  });

  it('Ctrl-C in a PTY to sleep reads as SIGINT', async () => {
    const s = await pidNamespace().start({ command: 'sleep', args: ['300'], pty: true });
    await waitFor(
      () => descendantsOf(s.pid!, processTable()).some((p) => p.command === 'sleep 300'),
      10_000,
      'sleep inside the namespace',
    );
    await s.sendKeys(['C-c']);
    expect(await s.wait({ timeoutMs: 10_000 })).toEqual({
      exitCode: null,
      signal: 'SIGINT',
      state: 'killed',
    });
  });

  it("leaves none of the waiters' status directories behind", async () => {
    // A temp dir of this test's own: other suites on the host make theirs in /tmp meanwhile.
    const own = mkdtempSync(join(workspace, 'tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      const sessions = pidNamespace();
      const made: string[] = [];
      for (const pty of [false, true]) {
        const s = await sessions.start({ command: 'sleep', args: ['300'], pty });
        made.push(...readdirSync(own));
        await s.kill();
      }
      await (await sessions.start({ command: 'true' })).wait();
      await sessions.dispose();
      expect(made.filter((name) => name.startsWith('procmux-pidns-'))).toHaveLength(2);
      expect(readdirSync(own)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it("signal() reaches the program, not the namespace's waiter", async () => {
    const s = await pidNamespace().start({
      command: 'python3',
      args: [
        '-u',
        '-c',
        'import signal,time\nsignal.signal(signal.SIGUSR1, lambda *_: print("usr1", flush=True))\nprint("ready", flush=True)\nwhile True: time.sleep(0.05)',
      ],
    });
    await pollUntil(s, /ready/);
    await s.signal('SIGUSR1');
    await pollUntil(s, /usr1/);
    await s.signal('SIGTERM');
    expect(await s.wait({ timeoutMs: 10_000 })).toEqual({
      exitCode: null,
      signal: 'SIGTERM',
      state: 'killed',
    });
  });

  it('a PTY python3 REPL inside answers Ctrl-C and keeps its terminal; its input wait is seen', async () => {
    const py = await pidNamespace().start({ command: 'python3', args: ['-i', '-q'], pty: true });
    await pollUntil(py, />>>\s*$/);
    await py.paste('import os, time; print(os.isatty(0), os.getpid())');
    await py.submit();
    // The program is 2 or 3 in its namespace (the init's sleep may take 2 first), never 1.
    await pollUntil(py, /True [23]\n>>>\s*$/);
    await py.paste('time.sleep(100)');
    await py.submit();
    await waitFor(
      () =>
        descendantsOf(py.pid!, processTable()).some((p) => p.state === 'S' && p.command.includes('python3')),
      10_000,
      'python inside the namespace',
    );
    await py.sendKeys(['C-c']);
    await pollUntil(py, /KeyboardInterrupt[\s\S]*>>>\s*$/);
    await waitFor(
      () => py.metadata().input?.confidence === 'kernel',
      10_000,
      'the kernel to see the input wait',
    );
    await py.paste('print(6 * 7)');
    await py.submit();
    await pollUntil(py, /^42\n>>>\s*$/m);
    await py.sendKeys(['C-d']);
    expect(await py.wait({ timeoutMs: 20_000 })).toEqual({ exitCode: 0, signal: null, state: 'exited' });
  });

  it('refuses resource limits (they need a cgroup), naming why', async () => {
    await expect(
      pidNamespace().start({ command: 'true', resourceLimits: { pids: 10 } }),
    ).rejects.toMatchObject({
      code: 'ERR_PROCESS_UNSUPPORTED',
      message: expect.stringContaining("'pid-namespace'"),
    });
  });
});
