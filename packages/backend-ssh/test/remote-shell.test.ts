// The wrapper's choice of shell, run here by a local sh exactly as the remote login shell runs
// it: bash where there is one, sh where there is none, and the descriptors closed either way.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { remoteTarget, wrapperCommand } from '../src/index.js';

const workspace = realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-ssh-shell-')));
// This machine's bash, which closes what the wrapper is not to inherit (found before PATH is cut).
const BASH = execFileSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim();
// A PATH with sh and the tools the wrapper and its monitor use, but no bash.
const noBash = join(workspace, 'bin');
execFileSync('mkdir', [noBash]);
for (const tool of ['sh', 'setsid', 'sleep', 'ps', 'awk', 'grep', 'sed', 'sort', 'ls', 'cat', 'kill']) {
  const path = execFileSync('sh', ['-c', `command -v ${tool} || true`], { encoding: 'utf8' }).trim();
  if (path.startsWith('/')) symlinkSync(path, join(noBash, tool));
}

/** Runs a command string through the wrapper as sshd would; stderr holds the header line. */
function run(command: string, path: string, extraFds: readonly number[] = []) {
  const line = wrapperCommand({
    nonce: 'n0',
    marker: `${process.pid}-ssh-shelltest`,
    graceMs: 100,
    workspace,
    cwd: workspace,
    env: {},
    mode: 'marker',
    namespace: [],
    ...remoteTarget({
      command,
      args: [],
      cwd: workspace,
      env: {},
      shell: true,
      onStdout() {},
      onStderr() {},
    }),
  });
  // Descriptors the wrapper inherits (as from its parent): the program must not see them.
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe'];
  for (const fd of extraFds) {
    while (stdio.length <= fd) stdio.push('ignore');
    stdio[fd] = 'pipe';
  }
  // Exactly those: what this test's own process inherited above stderr (a harness's pipe) is
  // closed before the wrapper starts, as sshd leaves a session 0-2.
  const keep = ` ${extraFds.join(' ')} `;
  const closeOthers = `for f in /proc/self/fd/*; do n=\${f##*/}; case "${keep}" in *" $n "*) ;; *) ((n > 2)) && eval "exec $n>&-" ;; esac; done; exec /bin/sh -c "$1"`;
  const child = spawnSync(BASH, ['--norc', '-c', closeOthers, 'bash', line], {
    encoding: 'utf8',
    env: { PATH: path, HOME: workspace },
    stdio,
  });
  return { stdout: child.stdout, stderr: child.stderr, code: child.status };
}

describe('a command string on the remote side', () => {
  afterAll(async () => {
    rmSync(workspace, { recursive: true, force: true });
    await assertNoLeakedProcesses();
  });

  it('runs under bash where the host has bash: [[ ]] and brace expansion work', () => {
    const r = run('[[ 1 == 1 ]] && echo ok; echo {1..3}; exit 7', process.env.PATH ?? '');
    expect(r).toMatchObject({ stdout: 'ok\n1 2 3\n', code: 7 });
  });

  it('runs under sh where there is no bash, with the same exit status', () => {
    const r = run('echo "$0" {1..3}; exit 7', noBash);
    expect(r).toMatchObject({ stdout: 'sh {1..3}\n', code: 7 });
  });

  it('closes inherited descriptors above stderr before the command, under bash and under sh', () => {
    for (const path of [process.env.PATH ?? '', noBash]) {
      const r = run('if [ -e /proc/self/fd/5 ]; then echo open; else echo closed; fi', path, [5]);
      expect(r.stdout).toBe('closed\n');
    }
  });

  it('closes one above 9 too where there is bash (sh cannot name it): bash closes them first', () => {
    const r = run(
      'for fd in 5 12; do if [ -e /proc/self/fd/$fd ]; then echo $fd open; else echo $fd closed; fi; done',
      process.env.PATH ?? '',
      [5, 12],
    );
    expect(r.stdout).toBe('5 closed\n12 closed\n');
  });

  it("execs the last command in the wrapper's pid (the header's), so sshd sees its exit", () => {
    const r = run("echo start; sh -c 'echo $$'", process.env.PATH ?? '');
    const header = /^n0:pid:(\d+):\d+:bash:(cgroup:\/.+|marker:)$/m.exec(r.stderr ?? '');
    expect(r.stdout).toBe(`start\n${header?.[1]}\n`);
  });
});
