// The wrapper's containment choice where the remote shell's cgroup has no room: run here by a
// local sh as the remote login shell runs it, in a mount namespace of its own whose cgroup
// mounts are read-only (as a non-root user without a delegated subtree sees them). 'cgroup'
// is refused naming why; 'auto' falls back to the pid namespace, else to the marker sweep.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceWords, remotePidNamespaceSupport } from '@procmux/backend-tmux';
import { assertNoLeakedProcesses, leakedCgroups, testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type WrapperCommand, wrapperCommand } from '../src/remote-scripts.js';

const workspace = realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-ssh-mode-')));
const root = process.platform === 'linux' && process.getuid?.() === 0;
const readOnly = root
  ? spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']).status === 0
  : false;

/** Runs `exit 7` through the wrapper with every cgroup mount read-only; stderr holds the header. */
function run(mode: WrapperCommand['mode'], namespace: readonly string[] = []) {
  const line = wrapperCommand({
    nonce: 'n0',
    marker: `${process.pid}-ssh-modetest`,
    graceMs: 100,
    workspace,
    cwd: workspace,
    env: {},
    mode,
    namespace,
    kind: 'shell',
    file: 'exit 7',
    args: [],
  });
  const lockDown =
    'for m in $(awk \'$9 == "cgroup2" || $9 == "cgroup" { print $5 }\' /proc/self/mountinfo); do mount -o remount,bind,ro "$m" || exit 99; done';
  const child = spawnSync(
    'unshare',
    ['--mount', '--propagation', 'private', '/bin/sh', '-c', `${lockDown}; ${line}`],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return { stderr: child.stderr, code: child.status };
}

describe.skipIf(!readOnly)("the wrapper where the remote shell's cgroup has no room", () => {
  afterAll(async () => {
    rmSync(workspace, { recursive: true, force: true });
    expect(leakedCgroups()).toEqual([]);
    await assertNoLeakedProcesses();
  });

  it("'cgroup' is refused naming why, before the program runs", () => {
    const r = run('cgroup');
    expect(r.code).toBe(126);
    expect(r.stderr).toMatch(/^n0:error:containment:\/sys\/fs\/cgroup\/\S+ is not writable/m);
  });

  it("'auto' runs the program in a pid namespace when there is one, else under the marker sweep", async () => {
    const support = await remotePidNamespaceSupport(async (command) => {
      const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' });
      return { stdout: r.stdout, stderr: r.stderr, code: r.status ?? 1 };
    });
    if (support.ok) {
      const r = run('auto', namespaceWords(support.spec, true));
      // The last field is the waiter's status directory, which the host reads and removes.
      const dir = /^n0:pid:\d+:\d+:bash:pid-namespace:(\/.+\/procmux-pidns-\d+-ssh-modetest)$/m.exec(
        r.stderr,
      )?.[1];
      expect(r.code).toBe(7);
      expect(dir && readFileSync(`${dir}/waiter`, 'utf8')).toBe('.');
      rmSync(dir!, { recursive: true, force: true });
    }
    const marker = run('auto');
    expect(marker.stderr).toMatch(/^n0:pid:\d+:\d+:bash:marker:$/m);
    expect(marker.code).toBe(7);
  });
});
