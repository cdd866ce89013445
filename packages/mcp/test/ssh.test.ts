import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  assertNoLeakedProcesses,
  processTable,
  requireTool,
  startTestSshd,
  type TestSshd,
} from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args.js';
import type { CliProcess } from '../src/cli-process.js';
import { main } from '../src/main.js';
import { StreamClientTransport } from './stream-transport.js';

describe('procmux mcp --ssh arguments', () => {
  const base = ['mcp', '--ssh', 'me@example.org:2222', '--ssh-known-hosts', 'kh', '--cwd', '/srv/w'];

  it('reads user@host[:port], resolves key files locally and keeps --cwd as a remote path', () => {
    expect(parseCliArgs([...base, '--ssh-identity', 'id'], '/local')).toMatchObject({
      kind: 'mcp',
      cwd: '/srv/w',
      ssh: {
        username: 'me',
        host: 'example.org',
        port: 2222,
        identityFile: '/local/id',
        knownHostsFile: '/local/kh',
      },
    });
    const plain = parseCliArgs(['mcp', '--ssh', 'me@h', '--ssh-known-hosts', '/kh', '--cwd', '/w/'], '/l');
    expect(plain).toMatchObject({ cwd: '/w/', ssh: { host: 'h', port: 22, identityFile: undefined } });
  });

  it('refuses what it cannot honour, saying what is allowed', () => {
    const usage = (argv: string[]) => () => parseCliArgs(argv, '/local');
    expect(usage(['mcp', '--ssh', 'example.org', '--ssh-known-hosts', 'kh', '--cwd', '/w'])).toThrow(
      '--ssh must be user@host or user@host:port (got "example.org")',
    );
    expect(usage(['mcp', '--ssh', 'me@h:70000', '--ssh-known-hosts', 'kh', '--cwd', '/w'])).toThrow(
      /--ssh must be user@host:port with a port from 1 to 65535/,
    );
    expect(usage(['mcp', '--ssh', 'me@h', '--cwd', '/w'])).toThrow(/needs --ssh-known-hosts/);
    expect(usage(['mcp', '--ssh', 'me@h', '--ssh-known-hosts', 'kh'])).toThrow(/--cwd with an absolute path/);
    expect(usage(['mcp', '--ssh', 'me@h', '--ssh-known-hosts', 'kh', '--cwd', 'rel'])).toThrow(
      /--cwd with an absolute path/,
    );
    expect(usage(['mcp', '--ssh-identity', 'id'])).toThrow(/--ssh-identity needs --ssh/);
    expect(usage(['demo', '--ssh', 'me@h'])).toThrow(/--ssh applies to procmux mcp/);
  });
});

function fakeProcess(stdin: PassThrough, stdout: PassThrough, errors: string[]): CliProcess {
  return {
    stdin,
    stdout,
    stderr: new Writable({
      write(chunk, _encoding, done) {
        errors.push(String(chunk));
        done();
      },
    }),
    cwd: () => tmpdir(),
    env: {},
    onStopSignal: () => () => {},
    onCrash: () => () => {},
  };
}

const skip = requireTool('sshd');

describe.skipIf(skip !== undefined)('procmux mcp --ssh against a real sshd', () => {
  let sshd: TestSshd;
  let workspace: string;
  beforeAll(async () => {
    sshd = await startTestSshd();
    workspace = mkdtempSync(join(tmpdir(), 'procmux-mcp-ssh-'));
  });
  afterAll(async () => {
    await sshd?.stop();
    // `mcp --ssh` made its tmux dir in the remote HOME, sshd's own, which stop() removed.
    rmSync(workspace, { recursive: true, force: true });
    await assertNoLeakedProcesses();
  });

  const argv = (extra: string[] = []) => [
    'mcp',
    '--ssh',
    `${sshd.username}@127.0.0.1:${sshd.port}`,
    '--ssh-identity',
    sshd.identityFile,
    '--ssh-known-hosts',
    sshd.knownHostsFile,
    '--cwd',
    workspace,
    ...extra,
  ];

  it('runs the tools on the host: $SSH_CONNECTION is set, the cwd is the remote workspace', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const errors: string[] = [];
    const exited = main(argv(), fakeProcess(toServer, fromServer, errors));
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamClientTransport(toServer, fromServer));
    const r = (await client.callTool({
      name: 'exec',
      arguments: { command: 'echo "conn=$SSH_CONNECTION"; pwd; exit 4' },
    })) as CallToolResult;
    const text = (r.content[0] as { text: string }).text;
    expect(text).toMatch(/^conn=127\.0\.0\.1 \d+ 127\.0\.0\.1 \d+\n/);
    expect(text).toContain(`${workspace}\n`);
    expect(text).toMatch(/Process exited with code 4\.$/);
    // A terminal session there too, left running: closing the client ends it on the remote side.
    const py = (await client.callTool({
      name: 'exec',
      arguments: { command: 'python3 -i -q', mode: 'session' },
    })) as CallToolResult;
    expect(py.isError).toBeFalsy();
    expect(errors.join('')).toMatch(/sessions run on .*@127\.0\.0\.1:\d+ over SSH/);
    toServer.end();
    expect(await exited).toBe(0);
    await client.close();
    const marked = () =>
      processTable().filter((p) => p.state !== 'Z' && p.marker?.startsWith(`${process.pid}-ssh-`));
    const deadline = Date.now() + 8_000;
    while (marked().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(marked()).toEqual([]);
  });

  it('a command string means what it means locally: [[ ]] and brace expansion under the remote bash', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const exited = main(argv(), fakeProcess(toServer, fromServer, []));
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamClientTransport(toServer, fromServer));
    const r = (await client.callTool({
      name: 'exec',
      arguments: { command: '[[ 1 == 1 ]] && echo ok; echo {1..3}' },
    })) as CallToolResult;
    expect((r.content[0] as { text: string }).text).toMatch(/^ok\n1 2 3\n[\s\S]*code 0\.$/);
    toServer.end();
    expect(await exited).toBe(0);
    await client.close();
  });

  it('exits 2 with the reason when the host key is unknown', async () => {
    const empty = join(workspace, 'empty_known_hosts');
    writeFileSync(empty, '');
    const errors: string[] = [];
    const args = argv();
    args[args.indexOf(sshd.knownHostsFile)] = empty;
    const code = await main(args, fakeProcess(new PassThrough(), new PassThrough(), errors));
    expect(code).toBe(2);
    expect(errors.join('')).toMatch(/is not in known_hosts \(its key is SHA256:/);
  });
});
