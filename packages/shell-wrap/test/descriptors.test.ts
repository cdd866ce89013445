// closeInheritedDescriptors: which wrapping each kind of spawn gets (pure), and that the
// shipped bash file really closes what a child inherited while keeping exit statuses.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  CALLER_BASH_ENV,
  CLOSE_FDS_SCRIPT,
  closeInheritedDescriptors,
  isBashCommand,
  registerSelfContainedLauncher,
} from '../src/index.js';

const env = { PATH: '/usr/bin:/bin' };
const hasBash = () => true;

describe('closeInheritedDescriptors', () => {
  it('gives a bash -c command the closing file through BASH_ENV, argv untouched', () => {
    const spec = { file: 'bash', args: ['--norc', '-c', 'echo hi'], env };
    expect(closeInheritedDescriptors(spec, { platform: 'linux', hasExecutable: hasBash })).toEqual({
      file: 'bash',
      args: ['--norc', '-c', 'echo hi'],
      env: { PATH: '/usr/bin:/bin', BASH_ENV: CLOSE_FDS_SCRIPT },
    });
  });

  it('puts --norc first for a bash -c that has none, and only then', () => {
    const run = (args: string[]) =>
      closeInheritedDescriptors({ file: 'bash', args, env }, { platform: 'linux' }).args;
    expect(run(['-c', 'echo hi'])).toEqual(['--norc', '-c', 'echo hi']);
    expect(run(['--noprofile', '-ec', 'x'])).toEqual(['--norc', '--noprofile', '-ec', 'x']);
    expect(run(['--noprofile', '--norc', '-c', 'x'])).toEqual(['--noprofile', '--norc', '-c', 'x']);
    // The command string is not an option, whatever it says.
    expect(run(['-c', '--norc'])).toEqual(['--norc', '-c', '--norc']);
  });

  it('runs a file through bash exec, and keeps a caller BASH_ENV for after the closing', () => {
    const out = closeInheritedDescriptors(
      { file: 'python3', args: ['-i', 'a b'], env: { ...env, BASH_ENV: '/home/me/env.sh' } },
      { platform: 'darwin', hasExecutable: hasBash },
    );
    expect(out.file).toBe('bash');
    expect(out.args).toEqual(['--norc', '-c', 'exec "$0" "$@"', 'python3', '-i', 'a b']);
    expect(out.env.BASH_ENV).toBe(CLOSE_FDS_SCRIPT);
    expect(out.env[CALLER_BASH_ENV]).toBe('/home/me/env.sh');
  });

  it('falls back to sh closing 3-9 without bash, and leaves Windows alone', () => {
    const spec = { file: 'sleep', args: ['1'], env };
    const sh = closeInheritedDescriptors(spec, { platform: 'linux', hasExecutable: () => false });
    expect(sh.file).toBe('/bin/sh');
    expect(sh.args[1]).toMatch(/; exec 3>&- .* 9>&-; exec "\$0" "\$@"$/);
    expect(sh.args.slice(2)).toEqual(['sleep', '1']);
    expect(closeInheritedDescriptors(spec, { platform: 'win32' })).toBe(spec);
  });

  it('runs a registered self-contained launcher as given, and only that exact path', () => {
    const file = '/proc/1/fd/99-self-contained-test';
    const spec = { file, args: ['a'], env };
    expect(closeInheritedDescriptors(spec, { platform: 'linux', hasExecutable: hasBash }).file).toBe('bash');
    registerSelfContainedLauncher(file);
    expect(closeInheritedDescriptors(spec, { platform: 'linux', hasExecutable: hasBash })).toBe(spec);
    const other = { ...spec, file: `${file}x` };
    expect(closeInheritedDescriptors(other, { platform: 'linux', hasExecutable: hasBash }).file).toBe('bash');
  });

  it('knows which bash reads BASH_ENV (not an interactive one)', () => {
    expect(isBashCommand('/bin/bash', ['--norc', '-c', 'x'])).toBe(true);
    expect(isBashCommand('bash', ['-ec', 'x'])).toBe(true);
    expect(isBashCommand('bash', ['-ic', 'x'])).toBe(false);
    expect(isBashCommand('bash', ['script.sh'])).toBe(false);
    expect(isBashCommand('bash', ['-i'])).toBe(false);
    expect(isBashCommand('sh', ['-c', 'x'])).toBe(false);
    expect(isBashCommand('/opt/mybash', ['-c', 'x'])).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('the shipped closing file (real bash, Linux /proc)', () => {
  it('closes inherited descriptors for a command and for a file, keeping stdio', () => {
    const fd = openSync('/etc/hostname', 'r');
    // Prints where the shell's own descriptors point (readlink runs in a child of it).
    const list = 'for f in /proc/$$/fd/*; do readlink "$f"; done; echo end';
    try {
      for (const spec of [
        { file: 'bash', args: ['--norc', '-c', list], env },
        { file: 'sh', args: ['-c', list], env },
      ]) {
        const out = closeInheritedDescriptors(spec, { platform: 'linux' });
        const run = (file: string, args: string[], childEnv: Record<string, string>) =>
          execFileSync(file, args, {
            env: childEnv,
            stdio: ['ignore', 'pipe', 'ignore', fd],
            encoding: 'utf8',
          });
        // Without the closing the descriptor is there (the check can fail)...
        expect(run(spec.file, spec.args, spec.env)).toContain('/etc/hostname');
        // ...with it, only stdio is left.
        const text = run(out.file, out.args, out.env);
        expect(text).toMatch(/end\n$/);
        expect(text).not.toContain('/etc/hostname');
      }
    } finally {
      closeSync(fd);
    }
  });

  it("closes them for a user's own bash -c on socket stdio with no SHLVL, and runs no rc file", async () => {
    // Node's child pipes are socketpairs: bash then takes itself for a command run by rshd
    // when SHLVL is unset, sources ~/.bashrc and skips BASH_ENV (the closing never ran).
    const home = mkdtempSync(join(testTmpdir(), 'procmux-rshd-'));
    writeFileSync(join(home, '.bashrc'), 'echo RC-RAN\n');
    const fd = openSync('/etc/hostname', 'r');
    const list = 'for f in /proc/$$/fd/*; do readlink "$f"; done; echo end';
    const spec = { file: 'bash', args: ['-c', list], env: { PATH: '/usr/bin:/bin', HOME: home } };
    const run = (file: string, args: string[], childEnv: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(file, args, { env: childEnv, stdio: ['pipe', 'pipe', 'pipe', fd] });
        let out = '';
        child.stdout!.setEncoding('utf8').on('data', (text: string) => {
          out += text;
        });
        child.stdin!.end();
        child.once('error', reject);
        child.once('close', () => resolve(out));
      });
    try {
      // Without the wrapping the rule applies (the check can fail)...
      const bare = await run(spec.file, spec.args, spec.env);
      expect(bare).toContain('RC-RAN');
      expect(bare).toContain('/etc/hostname');
      // ...with it, no rc file and only stdio is left.
      const out = closeInheritedDescriptors(spec, { platform: 'linux' });
      const text = await run(out.file, out.args, out.env);
      expect(text).toMatch(/end\n$/);
      expect(text).not.toContain('RC-RAN');
      expect(text).not.toContain('/etc/hostname');
    } finally {
      closeSync(fd);
    }
  });

  it('keeps a signal death and an exit code exactly as without it', () => {
    const killed = closeInheritedDescriptors(
      { file: 'bash', args: ['--norc', '-c', 'kill -TERM $$'], env },
      { platform: 'linux' },
    );
    expect(spawnSync(killed.file, killed.args, { env: killed.env }).signal).toBe('SIGTERM');
    const file = closeInheritedDescriptors(
      { file: 'sh', args: ['-c', 'exit 7'], env },
      { platform: 'linux' },
    );
    expect(spawnSync(file.file, file.args, { env: file.env }).status).toBe(7);
  });

  it('does not leak BASH_ENV into the command, and sources a caller BASH_ENV after', () => {
    // Shell parameter expansions, built so they cannot be mistaken for template placeholders.
    const v = (name: string, fallback = '') => `\${${name}-${fallback}}`;
    const show = `echo "[${v('BASH_ENV', 'unset')}] [${v('FROM_CALLER')}] [${v('PROCMUX_CALLER_BASH_ENV', 'unset')}]"`;
    const out = closeInheritedDescriptors(
      { file: 'bash', args: ['--norc', '-c', show], env },
      { platform: 'linux' },
    );
    expect(execFileSync(out.file, out.args, { env: out.env, encoding: 'utf8' })).toBe('[unset] [] [unset]\n');
    const callerFile = join(mkdtempSync(join(testTmpdir(), 'procmux-bashenv-')), 'env.sh');
    writeFileSync(callerFile, 'FROM_CALLER=yes\n');
    const withCaller = closeInheritedDescriptors(
      { file: 'bash', args: ['--norc', '-c', show], env: { ...env, BASH_ENV: callerFile } },
      { platform: 'linux' },
    );
    expect(execFileSync(withCaller.file, withCaller.args, { env: withCaller.env, encoding: 'utf8' })).toBe(
      `[${callerFile}] [yes] [unset]\n`,
    );
  });
});
