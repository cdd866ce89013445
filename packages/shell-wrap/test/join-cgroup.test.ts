// The cgroup join of the prologue, on real shells: the pid written is the program's own (the
// shell execs it), the variable is gone before the program runs, and a join that fails stops
// the program from running at all. Plain files stand in for cgroup.procs (a write is a write).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { CGROUP_JOIN_ENV, closeInheritedDescriptors } from '../src/index.js';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

function run(file: string, args: string[], join: string, hasBash: boolean) {
  const exec = closeInheritedDescriptors(
    { file, args, env: { PATH, [CGROUP_JOIN_ENV]: join } },
    { platform: 'linux', hasExecutable: () => hasBash },
  );
  return spawnSync(exec.file, exec.args, { env: exec.env, encoding: 'utf8' });
}

// Prints the shell's pid and whether the variable is still set (printenv fails when it is not).
const SHOW = 'echo "pid=$$ var=$(printenv PROCMUX_CGROUP_JOIN || echo unset)"';

describe.skipIf(process.platform !== 'linux')('joining the cgroup before the program runs', () => {
  const dir = mkdtempSync(join(testTmpdir(), 'procmux-join-'));
  const procs = [join(dir, 'a.procs'), join(dir, 'b.procs')];

  for (const [name, hasBash, file, args] of [
    ['bash -c (BASH_ENV)', true, 'bash', ['--norc', '-c', SHOW]],
    ['a file through bash exec', true, 'sh', ['-c', SHOW]],
    ['the sh fallback', false, 'sh', ['-c', SHOW]],
  ] as const) {
    it(`writes the program's own pid into every file, then unsets the variable: ${name}`, () => {
      for (const file of procs) writeFileSync(file, '');
      const result = run(file, [...args], procs.join(':'), hasBash);
      expect(result.status).toBe(0);
      const pid = /pid=(\d+) var=unset/.exec(result.stdout)?.[1];
      expect(pid).toBeDefined();
      for (const file of procs) expect(readFileSync(file, 'utf8').trim()).toBe(pid);
    });
  }

  it('exits 125 without running the program when a join fails (bash and sh)', () => {
    const readOnly = join(dir, 'no-such-dir', 'cgroup.procs');
    const marker = join(dir, 'ran');
    for (const hasBash of [true, false]) {
      const result = run('sh', ['-c', `touch ${marker}`], readOnly, hasBash);
      expect(result.status).toBe(125);
      expect(result.stderr).toContain("could not join the session's cgroup");
      expect(() => readFileSync(marker)).toThrow();
    }
    chmodSync(dir, 0o755);
  });
});
