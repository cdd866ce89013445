// A run in a systemd user scope after its host was SIGKILLed, with the real watchdog process:
// it kills the scope too, which holds what left the tree and cleared its environment. There is
// no user manager here: a systemctl stand-in on PATH kills what it is told the scope holds.
// (Not in the mutation run: it drives the built watchdog, not the mutated source.)
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoLeakedProcesses, trackPid, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/watchdog/main.js', import.meta.url));
const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe.skipIf(process.platform !== 'linux')('the real watchdog and a scope run', () => {
  let bin: string | undefined;
  const started: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    if (bin) rmSync(bin, { recursive: true, force: true });
    bin = undefined;
    await assertNoLeakedProcesses();
  });

  function standIns(): { dir: string; log: string; escapee: string } {
    bin = mkdtempSync(join(tmpdir(), 'procmux-fake-systemd-'));
    const log = join(bin, 'log');
    const escapee = join(bin, 'escapee.pid');
    // What systemd does for `kill --kill-whom=all`: every process of the scope, here the escapee.
    writeFileSync(
      join(bin, 'systemctl'),
      `#!/bin/sh\nprintf '%s\\n' "systemctl $*" >>"${log}"\n[ -f "${escapee}" ] && kill -KILL "$(cat "${escapee}")"; exit 0\n`,
    );
    chmodSync(join(bin, 'systemctl'), 0o755);
    return { dir: bin, log, escapee };
  }

  it('when the link closes (the host died), the watchdog kills the tree and then every process of its scope', async () => {
    const { dir, log, escapee } = standIns();
    // The tree's root carries the marker; the escapee left its group and cleared its
    // environment, so only the scope still knows it.
    const root = spawn('sleep', ['300'], {
      env: { ...process.env, PROCMUX_TREE: 'scope-test' },
      stdio: 'ignore',
    });
    const daemon = spawn('env', ['-i', 'sleep', '301'], { stdio: 'ignore', detached: true });
    started.push(root, daemon);
    trackPid(root.pid);
    trackPid(daemon.pid);
    await waitFor(
      () => readFileSync(`/proc/${daemon.pid}/cmdline`, 'utf8').startsWith('sleep'),
      5_000,
      'escapee',
    );
    writeFileSync(escapee, String(daemon.pid));
    const watchdog = spawn(process.execPath, [MAIN, '--platform', 'linux', '--grace-ms', '200'], {
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    started.push(watchdog);
    trackPid(watchdog.pid);
    watchdog.stdin!.write(`+ scope-test ${root.pid}\ns scope-test procmux-1-s\n`);
    watchdog.stdin!.end();
    await waitFor(() => !alive(root.pid!) && !alive(daemon.pid!), 15_000, 'the tree and its scope killed');
    expect(readFileSync(log, 'utf8')).toBe(
      'systemctl --user kill --kill-whom=all --signal=SIGKILL procmux-1-s.scope\n',
    );
  });
});
