import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative as relativePath } from 'node:path';
import { assertNoLeakedProcesses, testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type HasExecutable, hasExecutableOnPath, POSIX_FALLBACK_SHELL, shellWrap } from '../src/index.js';

const onlyOnPath =
  (...names: string[]): HasExecutable =>
  (name) =>
    names.includes(name);

/** Runs a wrapped command for real and returns what it printed. */
function run(command: string, options: Parameters<typeof shellWrap>[1] = {}, env: NodeJS.ProcessEnv = {}) {
  const { file, args } = shellWrap(command, { platform: 'linux', ...options });
  return execFileSync(file, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });
}

describe('shellWrap on POSIX', () => {
  it('runs the command through bash -c when bash is on PATH', () => {
    const wrapped = shellWrap('echo hi', { platform: 'linux', hasExecutable: onlyOnPath('bash', 'sh') });
    expect(wrapped).toEqual({
      file: 'bash',
      args: ['--norc', '-c', 'echo hi'],
      windowsVerbatimArguments: false,
      shell: 'bash',
    });
  });

  it('falls back to sh -c when bash is not on PATH', () => {
    const wrapped = shellWrap('echo hi', { platform: 'darwin', hasExecutable: onlyOnPath('sh') });
    expect(wrapped.file).toBe('sh');
    expect(wrapped.args).toEqual(['-c', 'echo hi']);
  });

  it('falls back to /bin/sh when neither bash nor sh is on PATH', () => {
    const wrapped = shellWrap('echo hi', { platform: 'linux', hasExecutable: onlyOnPath() });
    expect(wrapped.file).toBe(POSIX_FALLBACK_SHELL);
    expect(wrapped.file).toBe('/bin/sh');
  });

  it('asks the lookup about the PATH of the environment the child will get', () => {
    const seen: Array<string | undefined> = [];
    shellWrap('true', {
      platform: 'linux',
      env: { PATH: '/opt/child/bin' },
      hasExecutable: (_name, env) => {
        seen.push(env.PATH);
        return true;
      },
    });
    expect(seen).toEqual(['/opt/child/bin']);
  });

  it('uses an explicit shell as given, without looking anything up', () => {
    const wrapped = shellWrap('print 1', {
      platform: 'linux',
      shell: '/usr/bin/zsh',
      hasExecutable: () => {
        throw new Error('must not look up');
      },
    });
    expect(wrapped).toEqual({
      file: '/usr/bin/zsh',
      args: ['-c', 'print 1'],
      windowsVerbatimArguments: false,
      shell: '/usr/bin/zsh',
    });
  });

  it('passes the command as one argument, byte for byte', () => {
    const command = `printf '%s\\n' "a  b" 'c"d' \`true\` $HOME ü & wait | cat`;
    expect(shellWrap(command, { platform: 'linux', hasExecutable: onlyOnPath('bash') }).args).toEqual([
      '--norc',
      '-c',
      command,
    ]);
  });
});

describe('bash rc files', () => {
  it('does not source ~/.bashrc when stdin is a socket and SHLVL is unset', () => {
    const home = mkdtempSync(join(testTmpdir(), 'shell-wrap-home-'));
    writeFileSync(join(home, '.bashrc'), 'echo FROM_BASHRC\n');
    const { file, args } = shellWrap('echo hi', { platform: 'linux' });
    // spawnSync's 'pipe' stdio is a socketpair: exactly the case where bash reads its rc file.
    const env = { PATH: process.env.PATH, HOME: home };
    const ours = spawnSync(file, args, { env, encoding: 'utf8', timeout: 30_000 });
    expect(ours.stdout).toBe('hi\n');
    const plain = spawnSync('bash', ['-c', 'echo hi'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(plain.stdout).toBe('FROM_BASHRC\nhi\n');
    rmSync(home, { recursive: true, force: true });
  });
});

describe('hasExecutableOnPath (the real PATH search)', () => {
  const dir = mkdtempSync(join(testTmpdir(), 'shell-wrap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'bash'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(join(dir, 'sh'), 'not executable\n');
  chmodSync(join(dir, 'sh'), 0o644);
  mkdirSync(join(dir, 'a-directory'));

  it('finds an executable file in a PATH directory', () => {
    expect(hasExecutableOnPath('bash', { PATH: `/nonexistent:${dir}` })).toBe(true);
  });

  it('ignores a file that is not executable', () => {
    expect(hasExecutableOnPath('sh', { PATH: dir })).toBe(false);
  });

  it('ignores directories, relative entries, empty entries and a missing PATH', () => {
    expect(hasExecutableOnPath('a-directory', { PATH: dir })).toBe(false);
    const relative = relativePath(process.cwd(), dir);
    expect(hasExecutableOnPath('bash', { PATH: relative })).toBe(false);
    expect(hasExecutableOnPath('bash', { PATH: `:${relative}:` })).toBe(false);
    expect(hasExecutableOnPath('bash', {})).toBe(false);
    // An entry that is a file (ENOTDIR below it) is skipped, and the search goes on.
    expect(hasExecutableOnPath('bash', { PATH: join(dir, 'sh') })).toBe(false);
    expect(hasExecutableOnPath('bash', { PATH: `${join(dir, 'sh')}:${dir}` })).toBe(true);
  });

  it('picks bash, then sh, then /bin/sh from a real PATH', () => {
    expect(shellWrap('true', { platform: 'linux', env: { PATH: dir } }).file).toBe('bash');
    expect(shellWrap('true', { platform: 'linux', env: { PATH: '/nonexistent' } }).file).toBe('/bin/sh');
    const shOnly = join(dir, 'sh-only');
    mkdirSync(shOnly);
    symlinkSync('/bin/sh', join(shOnly, 'sh'));
    expect(shellWrap('true', { platform: 'linux', env: { PATH: shOnly } }).file).toBe('sh');
  });
});

describe('wrapped commands run for real and keep their quoting', () => {
  afterAll(async () => {
    await assertNoLeakedProcesses();
  });

  it('keeps double and single quotes and runs of spaces', () => {
    expect(run(`printf '[%s]' "a  b" 'c "d" e' "it's"`)).toBe(`[a  b][c "d" e][it's]`);
  });

  it('expands $VAR in the shell, not before', () => {
    expect(run('echo "$PROCMUX_SHELL_WRAP_TEST-$((2+3))"', {}, { PROCMUX_SHELL_WRAP_TEST: 'x y' })).toBe(
      'x y-5\n',
    );
    expect(run(`echo '$PROCMUX_SHELL_WRAP_TEST'`, {}, { PROCMUX_SHELL_WRAP_TEST: 'x' })).toBe(
      '$PROCMUX_SHELL_WRAP_TEST\n',
    );
  });

  it('runs pipes, redirections, && and multi-line scripts', () => {
    expect(run('printf "b\\na\\n" | sort | tr a-z A-Z')).toBe('A\nB\n');
    expect(run('false && echo no; true && echo yes; echo hidden >/dev/null; (echo err >&2) 2>&1')).toBe(
      'yes\nerr\n',
    );
    expect(run('x=1\nif [ "$x" = 1 ]; then\n  echo one\nfi')).toBe('one\n');
  });

  it('keeps non-ASCII text and backslashes', () => {
    expect(run(`printf '%s' 'héllo ✓ 日本 \\n'`)).toBe('héllo ✓ 日本 \\n');
  });

  it('runs the same commands through the sh fallback', () => {
    const sh = { hasExecutable: onlyOnPath('sh') };
    expect(shellWrap('true', { platform: 'linux', ...sh }).file).toBe('sh');
    expect(run(`printf '[%s]' "a  b" 'c "d"'`, sh)).toBe('[a  b][c "d"]');
    expect(run('echo "$PROCMUX_SHELL_WRAP_TEST" | tr x X', sh, { PROCMUX_SHELL_WRAP_TEST: 'xyz' })).toBe(
      'Xyz\n',
    );
  });
});
