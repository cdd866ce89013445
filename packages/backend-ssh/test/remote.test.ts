import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSession } from '@procmux/sessions';
import { assertNoLeakedProcesses, requireTool, type TestSshd, waitFor } from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeWorld,
  openWorld,
  remoteMonitors,
  remoteSurvivors,
  type SshWorld,
  settleSurvivors,
  startTestSshd,
} from './helpers.js';

const skip = requireTool('sshd');

// A shell whose tree escapes every way: a setsid child, an orphaned double fork, a TERM ignorer.
const ESCAPING_TREE =
  'setsid sleep 301 & (sleep 302 &) ; sh -c \'trap "" TERM; while :; do sleep 1; done\' & echo ready; wait';

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

describe.skipIf(skip !== undefined)('sessions over SSH (real sshd on loopback)', () => {
  let sshd: TestSshd;
  let world: SshWorld | undefined;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterEach(async () => {
    await closeWorld(world);
    world = undefined;
    expect(await settleSurvivors()).toEqual([]);
  });
  afterAll(async () => {
    await sshd?.stop();
    await assertNoLeakedProcesses();
  });

  it('runs through sshd: echo $SSH_CONNECTION through the tools is non-empty, in the remote cwd', async () => {
    world = await openWorld(sshd);
    const tools = createProcessTools(world.sessions);
    const r = await tools.exec.run({ command: 'echo "conn=$SSH_CONNECTION"; pwd' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toMatch(/^conn=127\.0\.0\.1 \d+ 127\.0\.0\.1 \d+\n/);
    expect(r.text).toContain(`${world.workspace}\n`);
    expect(r.text).toMatch(/Process exited with code 0\.$/);
    expect(r.data.session).toMatchObject({ state: 'exited', exitCode: 0, signal: null, stdioMode: 'pipe' });
  });

  it('runs a command string under the remote bash, pipes and terminal alike, and says so', async () => {
    world = await openWorld(sshd);
    const command = '[[ 1 == 1 ]] && echo ok; echo {1..3}';
    for (const pty of [false, true]) {
      const s = await world.sessions.start({ shell: true, command, pty });
      expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
      expect((await s.log()).text.trim().split(/\r?\n/)).toEqual(['ok', '1 2 3']);
      expect(s.metadata()).toMatchObject({ shell: true, shellName: 'bash' });
    }
    const program = await world.sessions.start({ command: 'echo', args: ['{1..3}'] });
    await program.wait({ timeoutMs: 10_000 });
    expect((await program.log()).text.trim()).toBe('{1..3}');
    expect(program.metadata().shellName).toBeNull();
  });

  it('reports exit codes and signal deaths exactly (exit 130 is not SIGINT)', async () => {
    world = await openWorld(sshd);
    const cases: [string, { exitCode: number | null; signal: string | null }][] = [
      ['exit 3', { exitCode: 3, signal: null }],
      ['exit 130', { exitCode: 130, signal: null }],
      ['exit 255', { exitCode: 255, signal: null }],
      ['kill -INT $$', { exitCode: null, signal: 'SIGINT' }],
      ['kill -TERM $$', { exitCode: null, signal: 'SIGTERM' }],
      ['kill -KILL $$', { exitCode: null, signal: 'SIGKILL' }],
      ['kill -SEGV $$', { exitCode: null, signal: 'SIGSEGV' }],
    ];
    for (const [command, expected] of cases) {
      const s = await world.sessions.start({ shell: true, command });
      const exit = await s.wait({ timeoutMs: 10_000 });
      expect({ command, exitCode: exit.exitCode, signal: exit.signal }).toEqual({ command, ...expected });
    }
    const tools = createProcessTools(world.sessions);
    const r = await tools.exec.run({ command: 'echo out; echo err >&2; exit 7' });
    expect(r.text).toBe('out\nerr\n\nProcess exited with code 7.');
  });

  it('kill ends the whole remote tree: setsid child, orphaned double fork, TERM ignorer', async () => {
    world = await openWorld(sshd);
    const s = await world.sessions.start({ shell: true, command: ESCAPING_TREE });
    await pollUntil(s, /ready/);
    // The main shell, the setsid sleep, the orphan, the ignorer and its sleep.
    await waitFor(() => remoteSurvivors().length >= 5, 10_000, 'the remote tree to be up');
    const before = remoteSurvivors().length;
    const outcome = await s.kill();
    expect(outcome.state).toBe('killed');
    // The remote killer verifies before it returns: nothing marked is left, at once.
    expect({ before, after: remoteSurvivors() }).toEqual({ before, after: [] });
  });

  it('signal() reaches the remote program without SSH signals; two kills at once both end it', async () => {
    world = await openWorld(sshd);
    const a = await world.sessions.start({ command: 'sleep', args: ['30'] });
    await a.signal('SIGINT');
    expect(await a.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: null, signal: 'SIGINT' });
    const b = await world.sessions.start({ shell: true, command: ESCAPING_TREE });
    await pollUntil(b, /ready/);
    const [first, second] = await Promise.allSettled([b.kill(), b.kill()]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { state: 'killed' } });
    // The second call finds the session ended (or joins the same kill): never a second tree kill.
    if (second.status === 'rejected') expect(second.reason).toMatchObject({ code: 'ERR_PROCESS_STATE' });
    expect(remoteSurvivors()).toEqual([]);
  });

  it('a one_shot timeout ends the whole remote tree', async () => {
    world = await openWorld(sshd);
    const tools = createProcessTools(world.sessions);
    const r = await tools.exec.run({ command: ESCAPING_TREE, timeout_ms: 1500 });
    expect(r.text).toContain('ready');
    expect(r.text).toContain('it ran past timeout_ms (1500 ms)');
    expect(remoteSurvivors()).toEqual([]);
  });

  it('drives python3 -i over an SSH terminal: paste, submit, poll, C-c, EOF', async () => {
    world = await openWorld(sshd);
    const py = await world.sessions.start({ command: 'python3', args: ['-i', '-q'], pty: true });
    expect(py.metadata()).toMatchObject({ stdioMode: 'pty', emulated: true });
    await pollUntil(py, />>>\s*$/);
    await py.paste('def twice(x):\n    return x * 2\n');
    await py.submit();
    expect(await pollUntil(py, />>>\s*$/)).toContain('...     return x * 2');
    await py.paste('print(twice(21))');
    await py.submit();
    expect(await pollUntil(py, /^42$/m)).toContain(' print(twice(21))\n42');
    // A loop that says once that it runs: the Ctrl-C interrupts it, not the prompt.
    await py.paste('for i in __import__("itertools").count(): _ = i or print("spinning")');
    await py.submit();
    await py.submit();
    await pollUntil(py, /^spinning\r?$/m);
    await py.sendKeys(['C-c']);
    expect(await pollUntil(py, /KeyboardInterrupt[\s\S]*>>>\s*$/)).toMatch(/KeyboardInterrupt/);
    await py.paste('print(twice(2))');
    await py.submit();
    await pollUntil(py, /^4\n>>>\s*$/m);
    await py.resize!({ columns: 100, rows: 30 });
    await py.paste('import os; print(os.get_terminal_size())');
    await py.submit();
    await pollUntil(py, /columns=100, lines=30/);
    await py.sendKeys(['C-d']);
    expect(await py.wait({ timeoutMs: 20_000 })).toEqual({ exitCode: 0, signal: null, state: 'exited' });
    expect(await py.screen()).toContain('>>> print(twice(21))\n42');
  });

  it('runs two sessions at once on one connection, apart', async () => {
    world = await openWorld(sshd);
    const [a, b] = await Promise.all([
      world.sessions.start({ command: 'cat' }),
      world.sessions.start({ command: 'cat' }),
    ]);
    await Promise.all([a.input('to a\n'), b.input('to b\n')]);
    expect(await pollUntil(a, /to a/)).not.toContain('to b');
    expect(await pollUntil(b, /to b/)).not.toContain('to a');
    await Promise.all([a.closeStdin(), b.closeStdin()]);
    expect(await a.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
    expect(await b.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
  });

  it('keeps the output limits for output far past them (64 MiB through a 1 MiB cap)', async () => {
    world = await openWorld(sshd, { limits: { maxOutputBytes: 1024 * 1024 } });
    const s = await world.sessions.start({
      shell: true,
      command: 'head -c 67108864 /dev/zero | tr "\\0" x; echo; echo END',
    });
    const exit = await s.wait({ timeoutMs: 60_000 });
    expect(exit).toMatchObject({ exitCode: 0, state: 'exited' });
    const meta = s.metadata();
    expect(meta.totalBytes).toBe(64 * 1024 * 1024 + 5);
    expect(meta.retainedBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(meta.truncated).toBe(true);
    // Paged reads from the oldest retained byte reach the end, which is complete.
    let page = await s.output({ maxBytes: 51_200 });
    let pages = 1;
    let last = page.data;
    while (!page.eof && pages < 100) {
      page = await s.output({ cursor: page.cursor, maxBytes: 51_200 });
      if (page.data !== '') last = page.data;
      pages++;
    }
    expect(last.endsWith('xxx\nEND\n')).toBe(true);
    expect(pages).toBeGreaterThanOrEqual(20);
  });

  it('refuses a cwd outside the remote workspace, before and on the remote side', async () => {
    world = await openWorld(sshd);
    await expect(world.sessions.start({ shell: true, command: 'pwd', cwd: '..' })).rejects.toMatchObject({
      code: 'ERR_PROCESS_POLICY',
    });
    // A remote workspace must be absolute, a cwd a string: the toolkit's refusal, details and all.
    const resolveCwd = world.backend.sandbox.resolveCwd!.bind(world.backend.sandbox);
    expect(() => resolveCwd('relative/dir')).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', details: { option: 'cwd' } }),
    );
    expect(() => resolveCwd(world!.workspace, 5 as unknown as string)).toThrow(
      'cwd must be a string path inside the workspace (got 5)',
    );
    // Only the remote side knows the directory is missing; the backend's reason stays in `cause`.
    const missing = await world.sessions
      .start({ shell: true, command: 'pwd', cwd: 'missing' })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({
      code: 'ERR_PROCESS_PTY_BACKEND',
      cause: {
        code: 'ERR_PROCESS_POLICY',
        message: expect.stringMatching(/does not exist on the remote host/),
      },
    });
    expect(world.sessions.list()).toEqual([]);
    // A symlink inside the workspace that leads out of it passes the lexical check here; the
    // wrapper's physical check on the remote side refuses it.
    const outside = mkdtempSync(join(tmpdir(), 'procmux-ssh-outside-'));
    symlinkSync(outside, join(world.workspace, 'link'));
    const escaped = await world.sessions
      .start({ shell: true, command: 'pwd', cwd: 'link' })
      .catch((e: unknown) => e);
    rmSync(outside, { recursive: true, force: true });
    expect(escaped).toMatchObject({
      code: 'ERR_PROCESS_PTY_BACKEND',
      cause: { message: expect.stringMatching(/outside the workspace on the remote host/) },
    });
    // Through a symlink that stays inside, the session runs in the physical directory.
    mkdirSync(join(world.workspace, 'real'));
    symlinkSync(join(world.workspace, 'real'), join(world.workspace, 'inside'));
    const tools = createProcessTools(world.sessions);
    const r = await tools.exec.run({ command: 'pwd -P', cwd: 'inside' });
    expect(r.text).toContain(`${join(world.workspace, 'real')}\n`);
  });

  it('a workspace of / takes any remote directory as the cwd', async () => {
    world = await openWorld(sshd);
    const root = createProcessSessions({
      cwd: '/',
      sandbox: world.backend.sandbox,
      ptyBackend: world.backend.ptyBackend,
    });
    try {
      const s = await root.start({ shell: true, command: 'pwd -P', cwd: world.workspace.slice(1) });
      expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
      expect((await s.poll()).stdout).toBe(`${realpathSync(world.workspace)}\n`);
    } finally {
      await root.dispose();
    }
  });

  it("a finished session's monitor leaves on its own, unless a marked escapee is still there", async () => {
    world = await openWorld(sshd);
    const done = await world.sessions.start({ shell: true, command: 'echo hi' });
    expect(await done.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
    await waitFor(() => remoteMonitors().length === 0, 10_000, 'the monitor of a finished session to leave');
    const escaping = await world.sessions.start({ shell: true, command: 'setsid sleep 303 & echo started' });
    expect(await escaping.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
    if (escaping.metadata().containment === 'cgroup') {
      // In a cgroup the session's tree ends with its program, as a local one's does: the
      // monitor kills the setsid child, removes the cgroup and leaves.
      await waitFor(
        () => remoteSurvivors().length === 0 && remoteMonitors().length === 0,
        10_000,
        'the monitor to end the cgroup and leave',
      );
      return;
    }
    // The program exits at once, its setsid child lives on: the monitor keeps guarding it (it
    // is ended with the connection, checked in afterEach), while the program's group is empty.
    await waitFor(() => remoteSurvivors().length === 1, 10_000, 'the setsid child alone');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(remoteMonitors()).toHaveLength(1);
    expect(remoteSurvivors()).toHaveLength(1);
  });
});
