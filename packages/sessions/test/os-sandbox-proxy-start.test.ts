// A connection a sandboxed program makes at once, before the in-sandbox forwarder (socat) has
// started listening, is still refused by the proxy and told: the program starts only once the
// forwarder listens. Under load socat's start can take tens of milliseconds; here a socat
// that is slow to start (a wrapper on the session's PATH) makes that window wide, so a `curl`
// run first thing would meet no listener and be refused by the kernel, untold. A socat that
// dies at once leaves the program running, told, with its network still closed; six sandboxes
// started together each tell their own refusal.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  assertNoLeakedProcesses,
  assertNoSandboxDirs,
  makeWorkspace,
  privateTmpdir,
} from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSessions } from '../src/index.js';

const linux = process.platform === 'linux';
const tmp = linux ? privateTmpdir() : '';

afterAll(async () => {
  if (!linux) return;
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

/** A `socat` on a PATH of its own that runs `script` (sh) in place of the real one. */
function socatShim(name: string, script: (socat: string) => string): string {
  const bin = join(tmp, name);
  mkdirSync(bin);
  const socat = execFileSync('sh', ['-c', 'command -v socat'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'socat'), `#!/bin/sh\n${script(socat)}\n`);
  chmodSync(join(bin, 'socat'), 0o755);
  return bin;
}

/** An HTTP server on the host's loopback that counts the requests reaching it. */
async function hostServer(): Promise<{ port: number; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    res.end('host page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!linux)('the sandbox proxy forwarder at a session start', () => {
  it('tells a connection the program makes before a slow socat listens', async () => {
    const host = await hostServer();
    const { port } = host;
    // The wrapper is what a loaded machine looks like to the program: socat listening late.
    const bin = socatShim('slow-bin', (socat) => `sleep 1\nexec ${socat} "$@"`);
    const sessions = createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true });
    try {
      const s = await sessions.start({
        command: `curl -sS --max-time 20 http://127.0.0.1:${port}/`,
        shell: true,
        env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
      });
      expect(await s.wait({ timeoutMs: 30_000 })).toMatchObject({ state: 'exited' });
      const out = await s.poll();
      expect(out.stdout).not.toContain('host page');
      expect(host.requests()).toBe(0);
      expect(s.metadata().sandbox!.violations.map((v) => [v.kind, v.target])).toEqual([
        ['network', `127.0.0.1:${port}`],
      ]);
    } finally {
      await sessions.dispose();
      await host.close();
    }
  });

  it('runs the program when socat dies before it listens, says so first, and keeps the network closed', async () => {
    const host = await hostServer();
    const bin = socatShim('dead-bin', () => 'exit 1');
    const sessions = createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true });
    try {
      const s = await sessions.start({
        command: `echo started; curl -sS --max-time 20 http://127.0.0.1:${host.port}/ || echo "curl exit $?"`,
        shell: true,
        env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
      });
      expect(await s.wait({ timeoutMs: 30_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
      const out = await s.poll();
      expect(out.stdout).toMatch(/^started\ncurl exit 7\n$/);
      expect(out.stderr.split('\n')[0]).toBe(
        'procmux sandbox: socat ended before it listened; a connection this program makes is refused without being told',
      );
      expect(host.requests()).toBe(0);
    } finally {
      await sessions.dispose();
      await host.close();
    }
  });

  it('tells each of six sandboxed sessions started at once its own refused connection', async () => {
    const host = await hostServer();
    const sessions = createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true });
    try {
      const started = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          sessions.start({
            command: `curl -sS --max-time 20 http://127.0.0.1:${host.port}/s${i}; echo done ${i}`,
            shell: true,
          }),
        ),
      );
      for (const [i, s] of started.entries()) {
        expect(await s.wait({ timeoutMs: 30_000 })).toMatchObject({ state: 'exited' });
        expect((await s.poll()).stdout).toContain(`done ${i}`);
        expect(s.metadata().sandbox!.violations.map((v) => [v.kind, v.target])).toEqual([
          ['network', `127.0.0.1:${host.port}`],
        ]);
      }
      expect(host.requests()).toBe(0);
    } finally {
      await sessions.dispose();
      await host.close();
    }
  });
});
