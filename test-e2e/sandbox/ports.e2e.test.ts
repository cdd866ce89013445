// `wait_for port` on a sandboxed session looks in the sandbox's own network, not at this host's
// loopback: a server inside is found (a connection from the host would never reach it), and a
// host service on the same port number does not read as the session's server being up; and a
// client in the session that goes through the proxy variables (curl, urllib) reaches that server.
import { rmSync } from 'node:fs';
import { assertNoLeakedProcesses, assertNoSandboxDirs, privateTmpdir } from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endStateDirs } from '../mcp/server.js';
import { hostHttp, type SandboxedServer, sessionId, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
const tmp = linux ? privateTmpdir() : '';
let server: SandboxedServer;
let host: Awaited<ReturnType<typeof hostHttp>>;

beforeAll(async () => {
  if (!linux) return;
  host = await hostHttp('a host service');
  server = await startSandboxed();
});

afterAll(async () => {
  if (!linux) return;
  await server.close();
  await host.close();
  endStateDirs();
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

/** A sandboxed daemon running `command`, and what wait_for on the host service's port number says. */
async function waitedPort(command: string, timeout: number): Promise<{ id: string; text: string }> {
  const id = sessionId((await server.call('exec', { command, mode: 'daemon' })).text);
  const r = await server.call('process', { action: 'wait_for', session_id: id, port: host.port, timeout });
  return { id, text: r.text };
}

describe.skipIf(!linux)('wait_for port in a sandboxed session', () => {
  it("is not fired by this host's service on the same port number", async () => {
    const { id, text } = await waitedPort('sleep 60', 1_500);
    expect(text).toContain(
      `Timed out after 1500 ms: port ${host.port} was not listening inside the session's sandbox (its own network).`,
    );
    await server.call('process', { action: 'kill', session_id: id });
  });

  it('finds a server listening inside the sandbox, which the host cannot connect to', async () => {
    const { id, text } = await waitedPort(`python3 -m http.server ${host.port} --bind 127.0.0.1`, 30_000);
    expect(text).toContain(
      `Port ${host.port} is listening inside the session's sandbox (its own network): its own processes can connect to it; other sessions and this host cannot.`,
    );
    // The host's service on that number is the one a connection from here reaches.
    const answer = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(await answer.text()).toBe('a host service');
    await server.call('process', { action: 'kill', session_id: id });
  });

  it("a shell's own server answers its curl and urllib, which go through the proxy, not the host's service", async () => {
    const started = await server.call('exec', { mode: 'session', command: 'bash --norc -i' });
    const id = sessionId(started.text);
    const write = (data: string) => server.call('process', { action: 'write', session_id: id, data });
    const waitLine = async (pattern: string) =>
      (await server.call('process', { action: 'wait_for', session_id: id, pattern, timeout: 30_000 })).text;
    await write(
      `echo inside page > page.txt; python3 -m http.server ${host.port} --bind 127.0.0.1 2>/dev/null &\r`,
    );
    const port = await server.call('process', {
      action: 'wait_for',
      session_id: id,
      port: host.port,
      timeout: 30_000,
    });
    expect(port.text).toContain(`Port ${host.port} is listening inside the session's sandbox`);
    await write(`echo "curl: $(curl -s http://localhost:${host.port}/page.txt)"\r`);
    // Waited for whole: a terminal read can end inside a line (`urllib: ` came alone once).
    expect(await waitLine('^curl: .*page$')).toMatch(/^curl: inside page\r?$/m);
    const urllib = `import urllib.request as u; print('urllib:', u.urlopen('http://127.0.0.1:${host.port}/page.txt').read().decode().strip())`;
    await write(`python3 -c "${urllib}"\r`);
    expect(await waitLine('^urllib: .*page$')).toMatch(/^urllib: inside page\r?$/m);
    await server.call('process', { action: 'kill', session_id: id });
  });

  it("a daemon's server is not reached from another session, and the refusal there says why", async () => {
    const { id, text } = await waitedPort(`python3 -m http.server ${host.port} --bind 127.0.0.1`, 30_000);
    expect(text).toContain(`Port ${host.port} is listening inside the session's sandbox`);
    const before = host.requests();
    const r = await server.call('exec', {
      command: `curl -s -o /dev/null -w 'status %{http_code}\\n' http://localhost:${host.port}/`,
    });
    expect(r.text).toMatch(/^status 403$/m);
    // The note, then how it ended, then what the sandbox refused: still the result's last line.
    const lines = r.text.trimEnd().split('\n');
    expect(lines.at(-3)).toBe(
      "This session's localhost is its own: a server another session or this host runs is not reachable from it. Start the server and its client in one session (`server & client` in one command, or both in a shell session).",
    );
    expect(lines.at(-2)).toMatch(/^Process exited with code 0\./);
    expect(lines.at(-1)).toBe(`sandbox: connection to localhost:${host.port} refused`);
    expect(host.requests()).toBe(before);
    await server.call('process', { action: 'kill', session_id: id });
  });
});
