// A session's environment is the program's, never the launch's: the host's side of a sandboxed
// start (the outer shell, bwrap) runs before any confinement, so a variable a caller or a model
// chose (BASH_ENV, PATH, BASH_FUNC_*, SHELLOPTS/PS4, LD_PRELOAD) must act on nothing there. Each
// payload below appends to a file outside the sandbox: on the host it could, inside it cannot.
// Before the fix each of them ran on the host (BASH_ENV and PATH measured through sessions).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchEnv, PROGRAM_ENV_PREFIX, SANDBOX_DEFAULT_ENV } from '../src/launcher.js';
import { resolveSandboxPolicy } from '../src/policy.js';
import { openSessionSandbox } from '../src/session-sandbox.js';
import { findExecutableOnPath } from '../src/which.js';
import { hostEnv, sandboxGround } from './ground.js';

const linux = process.platform === 'linux';
const ground = sandboxGround('sbx-env-', 'unused\n');
const { root, ws } = ground;
const proofs = join(root, 'proofs');
const cc = findExecutableOnPath('cc', process.env.PATH);

type Forwarder = 'sandbox-init' | 'socat';

/** Runs `script` (bash) sandboxed with `env` as the program's environment; a terminal on request. */
async function launch(
  script: string,
  env: Record<string, string>,
  options: { forwarder?: Forwarder; terminal?: boolean } = {},
): Promise<{ out: string; code: number | null }> {
  const policy = resolveSandboxPolicy({}, { workspace: ws, home: root });
  const box = await openSessionSandbox({
    policy,
    cwd: ws,
    commandText: () => script,
    ...(options.forwarder ? { forwarder: options.forwarder } : {}),
  });
  try {
    const target = box.wrap({ file: 'bash', args: ['--norc', '-c', script] }, ws, env);
    const quoted = [target.file, ...target.args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const [file, args] = options.terminal
      ? ['script', ['-qec', quoted, '/dev/null']]
      : [target.file, [...target.args]];
    // `script` runs the line with $SHELL: bash, as dash drops the names no shell can hold.
    const spawnEnv = options.terminal
      ? { ...target.env, SHELL: findExecutableOnPath('bash', process.env.PATH) ?? 'bash' }
      : target.env;
    const child = spawn(file as string, args as string[], { env: spawnEnv, cwd: ws });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { out, code };
  } finally {
    await box.close();
  }
}

/** A shell line that appends to the proof file `name` (on the host it can; inside it cannot). */
const prove = (name: string) => `echo ran >> ${join(proofs, name)}`;

function payloads(): Record<string, Record<string, string>> {
  mkdirSync(proofs, { recursive: true });
  writeFileSync(join(ws, 'evil.sh'), `${prove('bash-env')}\n`);
  const bin = join(ws, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const name of ['bwrap', 'tty', 'socat']) {
    const real = findExecutableOnPath(name, process.env.PATH) ?? `/usr/bin/${name}`;
    writeFileSync(join(bin, name), `#!/bin/sh\n${prove(`path-${name}`)}\nexec ${real} "$@"\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return {
    BASH_ENV: { BASH_ENV: join(ws, 'evil.sh') },
    PATH: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    'BASH_FUNC_tty%%': { 'BASH_FUNC_tty%%': `() { ${prove('function')}; command tty; }` },
    'SHELLOPTS and PS4': { SHELLOPTS: 'xtrace', PS4: `$(${prove('ps4')})` },
  };
}

describe("the launch's environment", () => {
  it("holds the host's absolute PATH directories and the program's variables renamed", () => {
    expect(launchEnv({ PATH: '/p', BASH_ENV: 'x', PROCMUX_TREE: 'theirs' }, '.:/usr/bin::bin:/bin')).toEqual({
      PATH: '/usr/bin:/bin',
      [`${PROGRAM_ENV_PREFIX}PATH`]: '/p',
      [`${PROGRAM_ENV_PREFIX}BASH_ENV`]: 'x',
    });
    expect(launchEnv({}, undefined).PATH).toBe(
      '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    );
    expect(launchEnv({}, 'bin:.').PATH).toBe('/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
  });

  it('finds host programs in absolute directories only, never relative to the cwd', () => {
    const bin = join(ws, 'rel-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
    const cwd = process.cwd();
    process.chdir(ws);
    try {
      expect(findExecutableOnPath('bwrap', 'rel-bin')).toBeUndefined();
      expect(findExecutableOnPath('bwrap', `rel-bin:${bin}`)).toBe(join(bin, 'bwrap'));
    } finally {
      process.chdir(cwd);
    }
  });
});

describe.skipIf(!linux)("the program's environment on the host's side of the launch", () => {
  for (const forwarder of ['sandbox-init', 'socat'] as const) {
    for (const terminal of [false, true]) {
      it(`runs none of BASH_ENV, PATH, BASH_FUNC_*, SHELLOPTS/PS4 outside (${forwarder}${terminal ? ', terminal' : ''})`, async () => {
        for (const [what, vars] of Object.entries(payloads())) {
          const r = await launch(
            'echo "inside: $BASH_ENV|$SHELLOPTS|$(type -t tty)"',
            { ...hostEnv(), ...vars },
            {
              forwarder,
              terminal,
            },
          );
          expect({ what, proofs: readdirSync(proofs) }).toEqual({ what, proofs: [] });
          // The program has them: they are its environment, inside.
          expect(r.out).toContain('inside: ');
          if (vars.BASH_ENV) expect(r.out).toContain(`inside: ${vars.BASH_ENV}|`);
          if (vars['BASH_FUNC_tty%%']) expect(r.out).toMatch(/inside: .*\|function/);
        }
      });
    }
  }

  it.skipIf(!cc && !process.env.CI)(
    'loads no LD_PRELOAD library into the launch (cc builds one)',
    async () => {
      expect(cc, 'CI has a C compiler (the package builds sandbox-init with one)').toBeDefined();
      mkdirSync(proofs, { recursive: true });
      const source = join(ws, 'evil.c');
      writeFileSync(
        source,
        `#include <stdio.h>\n__attribute__((constructor)) static void ran(void) { FILE *f = fopen("${join(proofs, 'preload')}", "a"); if (f) { fputs("ran\\n", f); fclose(f); } }\n`,
      );
      execFileSync(cc!, ['-shared', '-fPIC', '-o', join(ws, 'evil.so'), source]);
      for (const forwarder of ['sandbox-init', 'socat'] as const) {
        const r = await launch(
          'echo "inside: $LD_PRELOAD"',
          { ...hostEnv(), LD_PRELOAD: join(ws, 'evil.so') },
          {
            forwarder,
          },
        );
        expect(r.out).toContain(`inside: ${join(ws, 'evil.so')}`);
        expect(existsSync(join(proofs, 'preload'))).toBe(false);
      }
    },
  );

  for (const forwarder of ['sandbox-init', 'socat'] as const)
    it(`gives the program its variables exactly, under their own names and no one else (${forwarder})`, async () => {
      const given = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        PLAIN: 'one',
        'dotted.name-x': 'any name the kernel takes',
        'BASH_FUNC_f%%': '() {  echo from f\n}',
        MULTI: 'line one\nline two = three',
        EMPTY: '',
        TMPDIR: '/given/by/the/caller',
        PROCMUX_TREE: 'not-the-hosts',
        [`${PROGRAM_ENV_PREFIX}NESTED`]: 'a prefixed name of its own',
      };
      const r = await launch('env -0', given, { forwarder });
      const seen = Object.fromEntries(
        r.out
          .split('\0')
          .filter(Boolean)
          .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
      );
      const { TMPDIR, PROCMUX_TREE, ...kept } = given;
      expect(seen).toMatchObject(kept);
      // The sandbox's own TMPDIR and proxy go over the caller's; no launcher variable is left.
      expect(seen.TMPDIR).toMatch(/\/procmux-sandbox-[^/]+\/tmp$/);
      expect(seen.HTTP_PROXY).toBe('http://127.0.0.1:3128');
      expect(seen.PROCMUX_TREE).toBeUndefined();
      const bashOwn = ['PWD', 'SHLVL', '_'];
      const sandboxOwn = [
        ...['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'],
        ...Object.keys(SANDBOX_DEFAULT_ENV),
        'npm_config_cache',
      ];
      const extra = Object.keys(seen).filter(
        (name) =>
          !(name in given) &&
          !bashOwn.includes(name) &&
          !sandboxOwn.includes(name) &&
          !/^NO_PROXY$|^no_proxy$/.test(name),
      );
      expect(extra).toEqual([]);
      expect(seen).toMatchObject(SANDBOX_DEFAULT_ENV);
    });

  it("turns npm's and pip's registry checks off by default, and leaves it to the program's own setting", async () => {
    const path = process.env.PATH ?? '/usr/bin:/bin';
    const defaults = await launch('env -0', { PATH: path }, {});
    expect(defaults.out.split('\0')).toEqual(
      expect.arrayContaining([
        'npm_config_update_notifier=false',
        'NO_UPDATE_NOTIFIER=1',
        'PIP_DISABLE_PIP_VERSION_CHECK=1',
      ]),
    );
    const own = await launch('env -0', { PATH: path, npm_config_update_notifier: 'true' }, {});
    expect(own.out.split('\0')).toContain('npm_config_update_notifier=true');
  });

  it("gives npm a cache of the session's own, writable, where the user's ~/.npm is read-only", async () => {
    const path = process.env.PATH ?? '/usr/bin:/bin';
    const probe =
      'printf "%s\\n" "$TMPDIR" "$npm_config_cache"; mkdir -p "$npm_config_cache/x" && echo writable; ' +
      'mkdir -p "$HOME/.npm/x" 2>/dev/null || echo home-read-only';
    const r = await launch(probe, { PATH: path, HOME: root }, {});
    const [tmp, cache, ...rest] = r.out.trimEnd().split('\n');
    expect(tmp).toMatch(/\/procmux-sandbox-[^/]+\/tmp$/);
    expect(cache).toBe(`${tmp}/npm-cache`);
    expect(rest).toEqual(['writable', 'home-read-only']);
    const own = await launch(
      'printf "%s\\n" "$npm_config_cache"',
      { PATH: path, npm_config_cache: '/own' },
      {},
    );
    expect(own.out.trimEnd()).toBe('/own');
  });
});
