// `procmux mcp --sandbox` without any `--sandbox-allow-domain` (issue 29, item 3): a
// connection through the proxy variables is refused and the reply says so, as it does when
// some domains are allowed.
import { rmSync } from 'node:fs';
import { assertNoLeakedProcesses, assertNoSandboxDirs, privateTmpdir } from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostHttp, type SandboxedServer, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
// The server inherits TMPDIR: its sandboxes' private dirs are made (and checked) here.
const tmp = linux ? privateTmpdir() : '';
let server: SandboxedServer;
let forbidden: Awaited<ReturnType<typeof hostHttp>>;

beforeAll(async () => {
  if (!linux) return;
  forbidden = await hostHttp('host secret page');
  server = await startSandboxed();
});

afterAll(async () => {
  if (!linux) return;
  await server.close();
  await forbidden.close();
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!linux)('procmux mcp --sandbox with no allowed domain', () => {
  it("refuses HTTP to a server on the host's 127.0.0.1, and says which", async () => {
    // The forwarder is not waited for without allowed domains: the command waits for it to
    // listen (bounded in tries), as a program starting a few ms later finds it.
    const listening =
      "n=0; until grep -q ' 0100007F:0C38 00000000:0000 0A' /proc/net/tcp || [ $n -ge 300 ]; do n=$((n+1)); done";
    const r = await server.call('exec', {
      command: `${listening}; python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:${forbidden.port}/').read())"`,
    });
    expect(r.text).not.toContain('host secret page');
    expect(forbidden.requests()).toBe(0);
    expect(r.text.trimEnd().split('\n').slice(-3).join('\n')).toContain(
      `sandbox: connection to 127.0.0.1:${forbidden.port} refused`,
    );
  });
});
