// A connection a sandboxed program makes at once is still refused by the proxy and told: the
// program starts only once the in-sandbox forwarder listens (a connection before that would
// be refused by the kernel, untold). Six sandboxes started together each tell their own.
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  it('tells a connection the program makes first thing', async () => {
    const host = await hostServer();
    const sessions = createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true });
    try {
      // bash's /dev/tcp connects within a millisecond of the program's start: the forwarder
      // must already listen for the proxy to see it (a socat slow to listen, and one that
      // dies, are sandbox-linux's forwarder.test.ts).
      const s = await sessions.start({
        command: `exec 3<>/dev/tcp/127.0.0.1/3128 || exit 9; printf 'GET http://127.0.0.1:${host.port}/ HTTP/1.0\\r\\n\\r\\n' >&3; head -1 <&3`,
        shell: true,
      });
      expect(await s.wait({ timeoutMs: 30_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
      expect((await s.poll()).stdout).toMatch(/^HTTP\/1\.1 403/);
      expect(host.requests()).toBe(0);
      expect(s.metadata().sandbox!.violations.map((v) => [v.kind, v.target])).toEqual([
        ['network', `127.0.0.1:${host.port}`],
      ]);
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
