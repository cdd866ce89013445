// The escapee of issue 28, 3 s after its host was SIGKILLed: a setsid child that cleared its
// environment, and a double-forking daemon that closed every descriptor, both reparented away
// from the session. With a cgroup per session (Linux, where this host can make one) the
// watchdog kills and removes the cgroup: none may be left, from a library host or from
// `procmux mcp`. The counts are printed for the closing note.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostPidNamespaceSupport } from '@procmux/supervisor';
import { leakedCgroups, trackPid, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const CLI = fileURLToPath(new URL('../node_modules/@procmux/mcp/dist/cli.js', import.meta.url));
const AFTER_DEATH_MS = 3_000;
const counts: Record<string, number> = {};

afterAll(() => console.log(`escapees left 3 s after the host was SIGKILLed: ${JSON.stringify(counts)}`));

function tag(): string {
  return `30${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}`;
}

/** Live pids whose whole command line is `sleep <n>`, with their parent pids. */
function sleeps(n: string): { pid: number; ppid: number }[] {
  const found: { pid: number; ppid: number }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== `sleep\0${n}\0`) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') found.push({ pid: Number(name), ppid: Number(fields[1]) });
    } catch {}
  }
  return found;
}

function canMakeCgroups(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return readFileSync('/proc/self/cgroup', 'utf8').length > 0 && process.getuid?.() === 0;
  } catch {
    return false;
  }
}

async function killedHostLeaves(
  how: 'library' | 'mcp',
  containment: 'auto' | 'pid-namespace' = 'auto',
): Promise<number> {
  const [a, b] = [tag(), tag()];
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-escapee-')));
  // The host's own temp dir: a pid-namespace run keeps its waiter's status file there.
  const hostTmp = mkdtempSync(join(workspace, 'tmp-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(FIXTURES, 'escapee-host.mjs'), how, CLI, workspace, a, b, containment],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TMPDIR: hostTmp },
    },
  );
  trackPid(child.pid);
  try {
    const ready = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.startsWith('ready'));
        if (line) resolve(line);
      });
      child.once('exit', (code) => reject(new Error(`host ended before ready (${code})`)));
    });
    const host = Number(ready.split(' ')[1]);
    trackPid(host);
    // Both have escaped: running, and reparented (no longer children of a session process).
    await waitFor(
      () => [a, b].every((n) => sleeps(n).some((s) => s.ppid === 1 || !isChildOfSession(s.ppid))),
      15_000,
      'both escapees',
    );
    process.kill(host, 'SIGKILL');
    await waitFor(() => !alive(host), 10_000, 'the host to die');
    if (containment === 'pid-namespace') {
      // Waited for as a state: both gone once the namespace's init died (a deadline, not a sleep).
      await waitFor(() => sleeps(a).length + sleeps(b).length === 0, 10_000, 'the escapees to die').catch(
        () => undefined,
      );
      // The watchdog removes each run's status directory after its tree kill.
      const statusDirs = () => readdirSync(hostTmp).filter((name) => name.startsWith('procmux-pidns-'));
      await waitFor(() => statusDirs().length === 0, 10_000, 'the status dirs to be removed').catch(
        () => undefined,
      );
      counts[`${how} host SIGKILL (${containment}) status dirs`] = statusDirs().length;
    } else {
      await new Promise((resolve) => setTimeout(resolve, AFTER_DEATH_MS));
    }
    const left = [...sleeps(a), ...sleeps(b)];
    for (const { pid } of left) process.kill(pid, 'SIGKILL');
    counts[`${how} host SIGKILL (${containment})`] = left.length;
    return left.length;
  } finally {
    child.kill('SIGKILL');
    rmSync(workspace, { recursive: true, force: true });
  }
}

function isChildOfSession(ppid: number): boolean {
  try {
    const cmd = readFileSync(`/proc/${ppid}/cmdline`, 'utf8');
    // A pid namespace's init adopts the orphans: adopted is escaped.
    return !cmd.includes('procmux-pidns-init') && /python3|sh\0-c|bash/.test(cmd);
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe.skipIf(!canMakeCgroups())('escapees do not outlive a SIGKILLed host (Linux, cgroups)', () => {
  it('a library host: 0 left, and its cgroups are gone', async () => {
    expect(await killedHostLeaves('library')).toBe(0);
    expect(leakedCgroups()).toEqual([]);
  });

  it('procmux mcp: 0 left, and its cgroups are gone', async () => {
    expect(await killedHostLeaves('mcp')).toBe(0);
    expect(leakedCgroups()).toEqual([]);
  });
});

const pidNamespace = process.platform === 'linux' ? await hostPidNamespaceSupport() : undefined;

describe.skipIf(!pidNamespace?.ok)(
  'escapees do not outlive a SIGKILLed host (Linux, a pid namespace per session)',
  () => {
    it("a library host with containment 'pid-namespace': 0 left once the host is gone", async () => {
      expect(await killedHostLeaves('library', 'pid-namespace')).toBe(0);
      expect(counts['library host SIGKILL (pid-namespace) status dirs']).toBe(0);
    });
  },
);
