// What real tools print when the sandbox refuses them, through `procmux mcp --sandbox` (issue
// 29): Go's lowercase errno texts (gojq, a real Go program from Debian), node's, Python's, and
// curl's and wget's requests through the proxy, each told; and a program that prints the words
// beside no refused path is told nothing.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, assertNoSandboxDirs, privateTmpdir } from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endStateDirs } from '../mcp/server.js';
import { hostHttp, type SandboxedServer, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
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
  endStateDirs();
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

const oneShot = (command: string) => server.call('exec', { command });
const told = (text: string) => text.split('\n').filter((line) => line.startsWith('sandbox: '));

describe.skipIf(!linux)('refusal texts of real tools, told through procmux mcp --sandbox', () => {
  it("tells Go's lowercase `open PATH: permission denied` (gojq reading a key in ~/.ssh)", async () => {
    const key = join(server.home, '.ssh', 'id_ed25519');
    const r = await oneShot(`gojq . ${key}`);
    expect(r.text).toContain(`open ${key}: permission denied`);
    expect(r.text).not.toContain('FAKE-PRIVATE-KEY');
    expect(told(r.text)).toEqual([`sandbox: read of ${key} refused`]);
  });

  it("tells node's EACCES and EROFS texts", async () => {
    const key = join(server.home, '.ssh', 'id_ed25519');
    const target = join(server.root, 'from-node.txt');
    const read = await oneShot(`node -e "require('fs').readFileSync('${key}')"`);
    expect(read.text).toContain(`EACCES: permission denied, open '${key}'`);
    expect(told(read.text)).toEqual([`sandbox: read of ${key} refused`]);
    const write = await oneShot(`node -e "require('fs').writeFileSync('${target}', 'x')"`);
    expect(write.text).toContain(`EROFS: read-only file system, open '${target}'`);
    expect(existsSync(target)).toBe(false);
    expect(told(write.text)).toEqual([`sandbox: write to ${target} refused`]);
  });

  it("tells Python's PermissionError and OSError texts", async () => {
    const key = join(server.home, '.ssh', 'id_ed25519');
    const target = join(server.root, 'from-python.txt');
    const r = await oneShot(`python3 -c "open('${target}', 'w')" ; python3 -c "open('${key}').read()"`);
    expect(r.text).toContain(`Read-only file system: '${target}'`);
    expect(r.text).toContain(`Permission denied: '${key}'`);
    expect(told(r.text)).toEqual([`sandbox: write to ${target} refused`, `sandbox: read of ${key} refused`]);
  });

  it("tells curl's and wget's requests to the host's loopback, refused by the proxy", async () => {
    const url = `http://127.0.0.1:${forbidden.port}/`;
    const r = await oneShot(`curl -sS -f ${url}; wget -q -O - ${url}`);
    expect(r.text).not.toContain('host secret page');
    expect(forbidden.requests()).toBe(0);
    expect(told(r.text)).toEqual([`sandbox: connection to 127.0.0.1:${forbidden.port} refused`]);
  });

  it('tells nothing for the words printed beside no refused path', async () => {
    const r = await oneShot(
      [
        "echo 'docs: permission denied means the file is not yours'",
        'echo "notes.txt: read-only file system"',
        'echo "open $PWD/notes.txt: Read-only file system"',
        "echo 'open /etc/shadow: permission denied'",
      ].join('; '),
    );
    expect(r.text).toContain('docs: permission denied');
    expect(told(r.text)).toEqual([]);
  });
});
