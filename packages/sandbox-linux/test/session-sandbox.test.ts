// A real bubblewrap sandbox per test: what runs inside is refused and told, the allow list
// gets through the proxy, the terminal keeps its controlling tty while TIOCSTI is refused.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxPolicy } from '../src/policy.js';
import { openSessionSandbox, type SessionSandbox } from '../src/session-sandbox.js';
import { violationLine } from '../src/violations.js';
import { hostEnv, sandboxGround, scannedRun } from './ground.js';

const linux = process.platform === 'linux';
const ground = sandboxGround('sbx-real-', 'allowed body\n');
const { root, ws } = ground;

type Forwarder = 'sandbox-init' | 'socat';

async function run(script: string, allow: string[] = [], terminal = false, forwarder?: Forwarder) {
  const policy = resolveSandboxPolicy({ allowDomains: allow }, { workspace: ws, home: root });
  const box: SessionSandbox = await openSessionSandbox({
    policy,
    cwd: ws,
    commandText: () => script,
    ...(forwarder ? { forwarder } : {}),
  });
  const seen: string[] = [];
  box.onViolation((v) => seen.push(violationLine(v)));
  const inner = box.wrap({ file: 'bash', args: ['--norc', '-c', script] }, ws, hostEnv());
  // `script` gives the sandbox a real terminal as its stdin/stdout.
  const [file, args] = terminal
    ? [
        'script',
        [
          '-qec',
          [inner.file, ...inner.args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' '),
          '/dev/null',
        ],
      ]
    : [inner.file, inner.args];
  const child = spawn(file as string, args as string[], { env: inner.env, cwd: ws });
  const { stdout, stderr, code } = await scannedRun(child, box);
  await box.close();
  return { out: stdout + stderr, code, seen, count: box.violationCount };
}

// The package's own forwarder, and socat where it was not built: both tell every refusal.
const FORWARDERS: Forwarder[] = ['sandbox-init', 'socat'];

describe.skipIf(!linux)('openSessionSandbox (real bubblewrap)', () => {
  it('signal() reaches the program inside, not bwrap; exitOf() reads 128 + N back as N', async () => {
    const policy = resolveSandboxPolicy({}, { workspace: ws, home: root });
    const box = await openSessionSandbox({ policy, cwd: ws, commandText: () => '' });
    const script = "trap 'echo got-int; exit 5' INT; echo ready; while :; do sleep 0.05; done";
    const inner = box.wrap({ file: 'bash', args: ['--norc', '-c', script] }, ws, hostEnv());
    const child = spawn(inner.file, inner.args, { env: inner.env, cwd: ws });
    let out = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await ready;
    box.signal(child.pid!, 'SIGINT');
    expect(await closed).toBe(5);
    expect(out).toContain('got-int');
    expect(box.exitOf(5)).toEqual({ exitCode: 5, signal: null });
    expect(box.exitOf(130)).toEqual({ exitCode: null, signal: 'SIGINT' });
    expect(box.exitOf(143)).toEqual({ exitCode: 143, signal: null });
    box.signal(child.pid!, 'SIGTERM');
    await box.close();
  });

  it('writes in the workspace, refuses /tmp outside its private TMPDIR, and tells it', async () => {
    const r = await run(
      `echo ok > ${ws}/f; cat ${ws}/f; echo x > ${root}/out; touch "$TMPDIR/t" && echo tmp-ok; echo $$`,
    );
    expect(r.out).toContain('ok\n');
    expect(r.out).toContain('tmp-ok');
    expect(existsSync(join(root, 'out'))).toBe(false);
    expect(r.seen).toEqual([`sandbox: write to ${root}/out refused`]);
    // Its own pid namespace: the shell is pid 2 or 3 (bwrap's init is 1).
    // (stdout and stderr arrive on two pipes: the error line may come after the pid's.)
    expect(Number(/^(\d+)$/m.exec(r.out)?.[1]), r.out).toBeLessThan(10);
  });

  it.each(FORWARDERS)(
    'lets an allowed domain through the proxy and refuses, and tells, the rest (%s)',
    async (forwarder) => {
      const get = (url: string) =>
        `python3 -c "import urllib.request as u; print(u.urlopen('${url}').read().decode().strip())" 2>&1 | tail -1`;
      const r = await run(
        `${get(`http://localhost:${ground.port()}/`)}; ${get(`http://127.0.0.1:${ground.port()}/`)}`,
        [`localhost:${ground.port()}`],
        false,
        forwarder,
      );
      expect(r.out).toContain('allowed body');
      expect(r.out).toContain('HTTP Error 403');
      expect(r.seen).toEqual([`sandbox: connection to 127.0.0.1:${ground.port()} refused`]);
    },
  );

  it.each(FORWARDERS)(
    'with no domain allowed, refuses a connection through the proxy and tells it (%s)',
    async (forwarder) => {
      const get = `python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:${ground.port()}/').read())" 2>&1 | tail -1`;
      const before = ground.requests();
      const r = await run(get, [], false, forwarder);
      expect(r.out).toContain('HTTP Error 403');
      expect(r.out).not.toContain('allowed body');
      expect(ground.requests()).toBe(before);
      expect(r.seen).toEqual([`sandbox: connection to 127.0.0.1:${ground.port()} refused`]);
    },
  );

  it("reaches a server inside the sandbox through the proxy variables, not the host's on that port", async () => {
    // The inside server takes the host server's port number: a reply of the host's body would
    // mean the proxy connected on the host. bash's /dev/tcp connects directly (no proxy) to
    // wait until the server listens.
    const port = ground.port();
    const inside = `${ws}/inside`;
    const r = await run(
      [
        `mkdir -p ${inside} && echo inside body > ${inside}/page`,
        `python3 -m http.server ${port} --bind 127.0.0.1 -d ${inside} >/dev/null 2>&1 &`,
        `until (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; do sleep 0.05; done`,
        `echo "curl: $(curl -s http://localhost:${port}/page)"`,
        `echo "tunnel: $(curl -s --proxytunnel http://127.0.0.1:${port}/page)"`,
        `python3 -c "import urllib.request as u; print('urllib:', u.urlopen('http://0.0.0.0:${port}/page').read().decode().strip())" 2>&1 | tail -1`,
        `echo "closed: $(curl -s -o /dev/null -w '%{http_code}' http://localhost:1/)"`,
        // 32 MiB both ways a client goes through the proxy: whole, byte for byte.
        `head -c 33554432 /dev/urandom > ${inside}/big; echo "file: $(sha256sum < ${inside}/big)"`,
        `echo "plain: $(curl -s http://localhost:${port}/big | sha256sum)"`,
        `echo "tunneled: $(curl -s --proxytunnel http://localhost:${port}/big | sha256sum)"`,
        // 40 clients at once: each relayed connection asks for its own stream inside.
        `pids=; for i in $(seq 40); do curl -s http://localhost:${port}/page > ${inside}/got-$i & pids="$pids $!"; done; wait $pids`,
        `echo "concurrent: $(cat ${inside}/got-* | grep -c 'inside body')"`,
        'kill %1',
      ].join('\n'),
    );
    expect(r.out).toContain('curl: inside body');
    expect(r.out).toContain('tunnel: inside body');
    expect(r.out).toContain('urllib: inside body');
    expect(r.out).not.toContain('allowed body');
    const sum = /^file: ([0-9a-f]{64})/m.exec(r.out)?.[1];
    expect(sum, r.out).toBeDefined();
    expect(r.out).toContain(`plain: ${sum}`);
    expect(r.out).toContain(`tunneled: ${sum}`);
    expect(r.out).toContain('concurrent: 40');
    // A loopback port nothing inside listens on is refused by the proxy, and told, as before.
    expect(r.out).toContain('closed: 403');
    expect(r.seen).toEqual(['sandbox: connection to localhost:1 refused']);
  });

  it.each(FORWARDERS)(
    'keeps the controlling terminal (tty is /dev/pts/N) and refuses TIOCSTI (%s)',
    async (forwarder) => {
      // SigIgn (hex) of the program: INT (bit 1) and QUIT (bit 2), ignored outside for bwrap's
      // sake, are the program's own again under a terminal.
      const r = await run(
        `tty; grep SigIgn /proc/self/status; python3 -c "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'x')"`,
        [],
        true,
        forwarder,
      );
      const ignored = BigInt(`0x${/^SigIgn:\s*([0-9a-f]+)/m.exec(r.out)?.[1] ?? 'ff'}`);
      expect(ignored & 0b110n, r.out).toBe(0n);
      expect(r.out).toMatch(/^\/dev\/pts\/\d+\r?$/m);
      expect(r.out).toContain('Operation not permitted');
      expect(r.seen).toEqual(['sandbox: terminal input injection (TIOCSTI) refused']);
    },
  );
});
