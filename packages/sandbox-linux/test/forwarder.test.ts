// The forwarder inside a sandbox, run for real: the package's sandbox-init (listening before
// the program starts, holding none of its streams, naming a program it cannot run) and socat
// where sandbox-init was not built (a socat slow to listen is waited for; one that dies is
// said first, and the program runs with its network closed).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { requireTool } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { FORWARDER_DIED, FORWARDER_NOT_LISTENING } from '../src/launcher.js';
import { builtSandboxInit } from '../src/native.js';
import { resolveSandboxPolicy } from '../src/policy.js';
import { openSessionSandbox } from '../src/session-sandbox.js';
import { violationLine } from '../src/violations.js';
import { hostEnv, sandboxGround, scannedRun } from './ground.js';

const linux = process.platform === 'linux';
const tmuxMissing = linux ? requireTool('tmux') : 'not Linux';
const ground = sandboxGround('sbx-fwd-', 'host page\n');
const { root, ws } = ground;

interface Ran {
  stdout: string;
  stderr: string;
  code: number | null;
  told: string[];
}

/** Runs `script` (bash) in a fresh sandbox with `forwarder`, `path` first on its PATH. */
async function sandboxed(
  script: string,
  forwarder: 'sandbox-init' | 'socat',
  path?: string,
  vars: Record<string, string> = {},
): Promise<Ran> {
  const policy = resolveSandboxPolicy({}, { workspace: ws, home: root });
  const box = await openSessionSandbox({ policy, cwd: ws, commandText: () => script, forwarder });
  const told: string[] = [];
  box.onViolation((v) => told.push(violationLine(v)));
  const env = { ...hostEnv(), ...vars, ...(path ? { PATH: `${path}:${process.env.PATH ?? ''}` } : {}) };
  const target = box.wrap({ file: 'bash', args: ['--norc', '-c', script] }, ws, env);
  const child = spawn(target.file, target.args, { env: target.env, cwd: ws });
  const { stdout, stderr, code } = await scannedRun(child, box);
  await box.close();
  return { stdout, stderr, code, told };
}

/** A request to the host's loopback through the proxy variables' address, sent at once by bash. */
const requestAtOnce = () =>
  `exec 3<>/dev/tcp/127.0.0.1/3128 || exit 9; printf 'GET http://127.0.0.1:${ground.port()}/ HTTP/1.0\\r\\n\\r\\n' >&3; head -1 <&3`;

/** A `socat` on a PATH of its own that runs `script` (sh) in place of the real one. */
function socatShim(name: string, script: (socat: string) => string): string {
  const bin = join(root, name);
  mkdirSync(bin);
  const socat = execFileSync('sh', ['-c', 'command -v socat'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'socat'), `#!/bin/sh\n${script(socat)}\n`);
  chmodSync(join(bin, 'socat'), 0o755);
  return bin;
}

describe.skipIf(!linux)('sandbox-init', () => {
  const init = linux ? builtSandboxInit(process.arch) : undefined;

  it('is built with the package on this host', () => {
    expect(init).toMatch(/\/dist\/native\/sandbox-init-linux-(x64|arm64)$/);
  });

  it('refuses a forwarder it does not know, naming those it does', async () => {
    const policy = resolveSandboxPolicy({}, { workspace: ws, home: root });
    const open = openSessionSandbox({ policy, cwd: ws, commandText: () => '', forwarder: 'nc' as 'socat' });
    await expect(open).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: `forwarder must be 'sandbox-init', 'socat' or undefined (got "nc")`,
    });
  });

  it('listens before the program starts: a connection made first thing is refused by the proxy and told', async () => {
    const before = ground.requests();
    const r = await sandboxed(requestAtOnce(), 'sandbox-init');
    expect(r.stdout).toMatch(/^HTTP\/1\.1 403/);
    expect(r.code).toBe(0);
    expect(ground.requests()).toBe(before);
    expect(r.told).toEqual([`sandbox: connection to 127.0.0.1:${ground.port()} refused`]);
  });

  it('hands the program no descriptor of its own: neither the listener nor the seccomp file', async () => {
    // What the program holds beyond stdio, read from inside. (A descriptor the test runner
    // itself leaked passes through here: in a session, the launcher's outer shell closes every
    // inherited one first.)
    const r = await sandboxed('ls -l /proc/$$/fd | tail -n +5', 'sandbox-init');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/socket:|filter\.bpf|procmux-sandbox-/);
  });

  it('lets the program make no unix or vsock socket (doors out of every namespace), keeping socketpair and TCP', async () => {
    // A server on the host's file system, visible read-only inside, as a tmux server's is.
    const path = join(root, 'host.sock');
    const server = createServer((c) => c.end('host answered\n'));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const script = [
        `python3 -c "`,
        'import socket, ctypes, os',
        'try:',
        "    s = socket.socket(socket.AF_UNIX); s.connect(os.environ['SOCK']); print('unix:', s.recv(64))",
        "except OSError as e: print('unix:', e.strerror)",
        "a, b = socket.socketpair(); a.send(b'x'); print('socketpair:', b.recv(1))",
        "socket.socket(socket.AF_INET).close(); print('inet: made')",
        'try:',
        "    socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM); print('vsock: made')",
        "except OSError as e: print('vsock:', e.strerror)",
        'libc = ctypes.CDLL(None, use_errno=True)',
        "print('io_uring:', libc.syscall(425, 1, ctypes.create_string_buffer(120)), os.strerror(ctypes.get_errno()))",
        '"',
      ].join('\n');
      const r = await sandboxed(script, 'sandbox-init', undefined, { SOCK: path });
      expect(r.stdout).toBe(
        "unix: Operation not permitted\nsocketpair: b'x'\ninet: made\nvsock: Operation not permitted\nio_uring: -1 Operation not permitted\n",
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.skipIf(tmuxMissing !== undefined)(
    "refuses a host tmux server's socket, and tells it (tmux names the path)",
    async () => {
      const socket = join(root, 'tmux.sock');
      const proof = join(root, 'tmux-ran');
      execFileSync('tmux', ['-S', socket, 'new-session', '-d', 'sleep 60']);
      try {
        const r = await sandboxed(`tmux -S ${socket} new-window 'touch ${proof}'`, 'sandbox-init');
        expect(r.code).not.toBe(0);
        expect(r.told).toEqual([`sandbox: connection to unix socket ${socket} refused`]);
        expect(existsSync(proof)).toBe(false);
      } finally {
        execFileSync('tmux', ['-S', socket, 'kill-server']);
      }
    },
  );

  it('names a program it cannot run, with the exit codes a shell gives', async () => {
    const run = (file: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(init!, ['/nonexistent.sock', '0', file], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    expect(await run('no-such-program-29')).toEqual({
      code: 127,
      stderr: 'procmux sandbox: no-such-program-29: No such file or directory\n',
    });
    expect(await run(ws)).toEqual({ code: 126, stderr: `procmux sandbox: ${ws}: Permission denied\n` });
    // (Each run's forwarder ended with it: the file's teardown finds no process left.)
  });

  it('runs the program when it cannot listen, and says so first', async () => {
    // Port 80 needs a capability the sandbox dropped: the listen fails as a broken one would.
    const out = execFileSync(
      'bash',
      [
        '-c',
        'bwrap --ro-bind / / --dev /dev --unshare-user --unshare-pid --unshare-net --die-with-parent --cap-drop ALL -- "$0" /nonexistent.sock 80 sh -c "echo ran" 2>&1',
        init!,
      ],
      { encoding: 'utf8' },
    );
    expect(out).toBe(
      `${FORWARDER_NOT_LISTENING} (Permission denied); a connection this program makes is refused without being told\nran\n`,
    );
  });

  it("holds none of the program's streams, and ends with the program", async () => {
    // Outside any sandbox (port 0: any free one), so no pid namespace ends the forwarder. The
    // program names its only child, the forwarder, closes its output and runs on: the output
    // ends then, as nothing else holds it.
    const child = spawn(
      init!,
      [
        '/nonexistent.sock',
        '0',
        'sh',
        '-c',
        'read -r f _ </proc/$$/task/$$/children; echo $f; exec >&- 2>&-; exec sleep 60',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.stdout.on('end', resolve));
    const forwarder = Number(out.trim());
    expect(forwarder).toBeGreaterThan(0);
    expect(child.exitCode).toBeNull();
    expect(alive(forwarder)).toBe(true);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await until(() => !alive(forwarder));
  });
});

function alive(pid: number): boolean {
  try {
    // A zombie has not been reaped yet but runs no more.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

describe.skipIf(!linux)('socat, where sandbox-init was not built', () => {
  it('waits for a socat slow to listen, so a connection made first thing is told', async () => {
    const bin = socatShim('slow-bin', (socat) => `sleep 1\nexec ${socat} "$@"`);
    const before = ground.requests();
    const r = await sandboxed(requestAtOnce(), 'socat', bin);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 403/);
    expect(ground.requests()).toBe(before);
    expect(r.told).toEqual([`sandbox: connection to 127.0.0.1:${ground.port()} refused`]);
  });

  it('runs the program when socat dies before it listens, says so first, and keeps the network closed', async () => {
    const bin = socatShim('dead-bin', () => 'exit 1');
    const before = ground.requests();
    const r = await sandboxed(`echo started; ${requestAtOnce()}`, 'socat', bin);
    expect(r.stdout).toBe('started\n');
    expect(r.code).toBe(9);
    expect(r.stderr.split('\n')[0]).toBe(FORWARDER_DIED);
    expect(ground.requests()).toBe(before);
    expect(r.told).toEqual([]);
  });
});
