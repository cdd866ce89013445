// Every guarantee still holds inside `procmux mcp --sandbox`: a controlling terminal (Ctrl-C,
// job control, /dev/pts/N), tree kill of a daemon's setsid/double-fork tree, and the kernel's
// waiting-for-input detection stopping a one_shot at a password prompt; and npm runs a script
// without its registry check being refused (and told) on every run, and installs a package.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertNoLeakedProcesses,
  assertNoSandboxDirs,
  descendantsOf,
  isAlive,
  privateTmpdir,
  waitFor,
  withoutUsage,
} from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endStateDirs } from '../mcp/server.js';
import { type SandboxedServer, sessionId, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
// The servers inherit TMPDIR: their sandboxes' private dirs are made (and checked) here.
const tmp = linux ? privateTmpdir() : '';
let server: SandboxedServer;

beforeAll(async () => {
  // npm and pnpm set npm_config_* for the scripts they run (the cache in the real home, where
  // the registry check was done today; the check off); a model's host has none of them.
  for (const name of Object.keys(process.env)) if (/^npm_config_/i.test(name)) delete process.env[name];
  if (linux) server = await startSandboxed();
});

afterAll(async () => {
  if (!linux) return;
  await server.close();
  endStateDirs();
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

// wait_for looks at output no result has shown yet, so what a start's result already showed
// is not waited for again.
const waitText = (id: string, pattern: string) =>
  server.call('process', { action: 'wait_for', session_id: id, pattern, timeout: 15_000 });
const startSession = async (command: string, ready: RegExp) => {
  const started = await server.call('exec', { mode: 'session', command });
  const id = sessionId(started.text);
  if (!ready.test(started.text)) await waitText(id, ready.source);
  return id;
};

describe.skipIf(!linux)('inside procmux mcp --sandbox', () => {
  it('python3 -i: Ctrl-C raises KeyboardInterrupt, then print(6*7) prints 42', async () => {
    const id = await startSession('python3 -i', />>>/);
    await server.call('process', { action: 'send_keys', session_id: id, keys: ['C-c'] });
    expect((await waitText(id, 'KeyboardInterrupt')).text).toContain('KeyboardInterrupt');
    await server.call('process', { action: 'write', session_id: id, data: 'print(6*7)\r' });
    expect((await waitText(id, '^42$')).text).toMatch(/^42\r?$/m);
    await server.call('process', { action: 'kill', session_id: id });
  });

  it('bash --norc -i: a background job is Running and tty names /dev/pts/N', async () => {
    const id = await startSession('bash --norc -i', /bash-/);
    await server.call('process', { action: 'write', session_id: id, data: 'sleep 9 & jobs; tty\r' });
    const r = await waitText(id, '^/dev/pts/\\d+');
    const all = (await server.call('process', { action: 'log', session_id: id })).text;
    expect(all).toMatch(/\[1\]\+\s+Running\s+sleep 9 &/);
    expect(r.text + all).toMatch(/^\/dev\/pts\/\d+\r?$/m);
    await server.call('process', { action: 'kill', session_id: id });
  });

  it("a daemon's tree with setsid and double-fork children: none left after kill", async () => {
    const started = await server.call('exec', {
      mode: 'daemon',
      command: "(setsid sh -c 'exec env -i sleep 301.7' &); (sh -c 'sleep 302.3 &' &); echo up; sleep 300",
    });
    const id = sessionId(started.text);
    expect(started.text).toContain('up');
    const pid = started.pid!;
    expect(pid).toBeTypeOf('number');
    // The host sees the orphans inside under their host pids (no socat: nothing is allowed).
    const running = (wanted: string[]) => () => {
      const commands = descendantsOf(pid).map((p) => p.command);
      return wanted.every((w) => commands.some((c) => c.includes(w)));
    };
    await waitFor(
      running(['sleep 301.7', 'sleep 302.3', 'sleep 300']),
      10_000,
      'the tree inside the sandbox',
    );
    const tree = descendantsOf(pid).map((p) => p.pid);
    await server.call('process', { action: 'kill', session_id: id });
    await waitFor(() => [pid, ...tree].every((p) => !isAlive(p)), 10_000, 'the whole tree gone');
    expect([pid, ...tree].filter((p) => isAlive(p))).toEqual([]);
  });

  it('loses no tail: the last bytes of a 200 KB burst that exits at once are in the reply', async () => {
    const r = await server.call('exec', {
      command: `python3 -c "import sys; sys.stdout.write('x' * 200000 + 'TAIL-' + 'END')"`,
    });
    expect(withoutUsage(r.text)).toMatch(/TAIL-END\n\nProcess exited with code 0\.$/);
  });

  it('one_shot read -s -p "Password: " is stopped at the prompt, as outside', async () => {
    const r = await server.call('exec', { command: 'read -s -p "Password: " x; echo got $x' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(
      'it was waiting for input at "Password:" (input was not echoed: likely a password)',
    );
    expect(r.text).not.toContain('got');
  });
});

describe.skipIf(!linux)('host death with --sandbox', () => {
  it('SIGKILL of procmux mcp ends the sandboxed tree (the watchdog, then the pid namespace)', async () => {
    const doomed = await startSandboxed();
    try {
      const started = await doomed.call('exec', {
        mode: 'daemon',
        command: "(setsid sh -c 'exec env -i sleep 303.1' &); echo up; sleep 300",
      });
      const pid = started.pid!;
      await waitFor(
        () => descendantsOf(pid).some((p) => p.command.includes('sleep 303.1')),
        10_000,
        'the orphan inside the sandbox',
      );
      const tree = [pid, ...descendantsOf(pid).map((p) => p.pid)];
      process.kill(doomed.serverPid, 'SIGKILL');
      await waitFor(() => tree.every((p) => !isAlive(p)), 15_000, 'the sandboxed tree gone');
      expect(tree.filter((p) => isAlive(p))).toEqual([]);
    } finally {
      await doomed.close().catch(() => {});
    }
  });

  it("npm test runs its script, and no refusal of npm's own registry check is told", async () => {
    const pkg = { name: 'x', version: '1.0.0', scripts: { test: 'echo TESTS-RAN' } };
    writeFileSync(join(server.workspace, 'package.json'), JSON.stringify(pkg));
    const r = await server.call('exec', { command: 'npm test' });
    expect(r.text).toContain('TESTS-RAN');
    expect(r.text).toMatch(/Process exited with code 0\./);
    expect(r.text).not.toContain('sandbox:');
  });

  it("npm install works in a cache of the session's own, and the user's ~/.npm is not written", async () => {
    // A package as npm packs one (a tarball of package/), installed with no network at all.
    const source = join(server.workspace, 'tiny');
    mkdirSync(join(source, 'package'), { recursive: true });
    writeFileSync(
      join(source, 'package', 'package.json'),
      JSON.stringify({ name: 'tiny-dep', version: '1.0.0' }),
    );
    writeFileSync(join(source, 'package', 'index.js'), 'module.exports = () => 6 * 7;\n');
    execFileSync('tar', ['czf', join(server.workspace, 'tiny-dep-1.0.0.tgz'), '-C', source, 'package']);
    const r = await server.call('exec', {
      command:
        "npm install --no-audit --no-fund ./tiny-dep-1.0.0.tgz && node -e \"console.log('answer', require('tiny-dep')())\"",
    });
    expect(r.text).toMatch(/^answer 42$/m);
    expect(r.text).toMatch(/Process exited with code 0\./);
    expect(r.text).not.toContain('sandbox:');
    expect(existsSync(join(server.home, '.npm'))).toBe(false);
  });
});
