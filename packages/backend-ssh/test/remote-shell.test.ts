// The wrapper's choice of shell, run here by a local sh exactly as the remote login shell runs
// it: bash where there is one, sh where there is none, and the descriptors closed either way.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { remoteTarget, wrapperCommand } from '../src/index.js';

const workspace = realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-ssh-shell-')));
// A PATH with sh and the tools the wrapper and its monitor use, but no bash.
const noBash = join(workspace, 'bin');
execFileSync('mkdir', [noBash]);
for (const tool of ['sh', 'setsid', 'sleep', 'ps', 'awk', 'grep', 'sed', 'sort', 'ls', 'cat', 'kill']) {
  const path = execFileSync('sh', ['-c', `command -v ${tool} || true`], { encoding: 'utf8' }).trim();
  if (path.startsWith('/')) symlinkSync(path, join(noBash, tool));
}

/** Runs a command string through the wrapper as sshd would; stderr holds the header line. */
function run(command: string, path: string, extraFd = false) {
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
  // fd 5 open in the wrapper's parent: the program must not see it.
  const script = extraFd ? `exec 5</dev/null; ${line}` : line;
  const child = spawnSync('/bin/sh', ['-c', script], {
    encoding: 'utf8',
    env: { PATH: path, HOME: workspace },
    stdio: ['ignore', 'pipe', 'pipe'],
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
      const r = run('if [ -e /proc/self/fd/5 ]; then echo open; else echo closed; fi', path, true);
      expect(r.stdout).toBe('closed\n');
    }
  });

  it("execs the last command in the wrapper's pid (the header's), so sshd sees its exit", () => {
    const r = run("echo start; sh -c 'echo $$'", process.env.PATH ?? '');
    const header = /^n0:pid:(\d+):\d+:bash:(cgroup:\/.+|marker:)$/m.exec(r.stderr ?? '');
    expect(r.stdout).toBe(`start\n${header?.[1]}\n`);
  });
});
