// A connection a sandboxed program makes at once, before the in-sandbox forwarder (socat) has
// started listening, is still refused by the proxy and told: the program starts only once the
// forwarder listens. Under load socat's start can take tens of milliseconds; here a socat
// that is slow to start (a wrapper on the session's PATH) makes that window wide, so a `curl`
// run first thing would meet no listener and be refused by the kernel, untold.
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

describe.skipIf(!linux)('the sandbox proxy forwarder at a session start', () => {
  it('tells a connection the program makes before a slow socat listens', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('host page');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const bin = join(tmp, 'slow-bin');
    mkdirSync(bin);
    const socat = execFileSync('sh', ['-c', 'command -v socat'], { encoding: 'utf8' }).trim();
    // The wrapper is what a loaded machine looks like to the program: socat listening late.
    writeFileSync(join(bin, 'socat'), `#!/bin/sh\nsleep 1\nexec ${socat} "$@"\n`);
    chmodSync(join(bin, 'socat'), 0o755);
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
      expect(requests).toBe(0);
      expect(s.metadata().sandbox!.violations.map((v) => [v.kind, v.target])).toEqual([
        ['network', `127.0.0.1:${port}`],
      ]);
    } finally {
      await sessions.dispose();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
