// What a model is told at initialize: under --sandbox, where its commands can write and what
// they can reach, before its first refused write.

import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createProcessSessions } from '@procmux/sessions';
import { privateTmpdir } from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcmuxServer } from '../src/index.js';
import { serverInstructions } from '../src/instructions.js';

const root = privateTmpdir();
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('serverInstructions', () => {
  it('says how the tools go together, and nothing of a sandbox without one', () => {
    const text = serverInstructions();
    expect(text).toContain('exec runs a command');
    expect(text).not.toMatch(/sandbox/i);
  });

  it('names every writable path, $TMPDIR, the allowed domains and the own localhost', () => {
    const text = serverInstructions({
      workspace: '/work/ws',
      write: ['/data/out'],
      allowDomains: ['registry.npmjs.org', '*.pypi.org'],
    });
    expect(text.split('\n').slice(1)).toEqual([
      "Every command runs in an OS sandbox. It can write only to /work/ws, /data/out and to its session's own temp dir, $TMPDIR (gone when the session ends); /tmp, the home directory and the rest are read-only, and the user's secrets (~/.ssh, cloud credentials) cannot be read.",
      'The network is reached only through a proxy that lets through registry.npmjs.org, *.pypi.org. Each session has its own localhost: run a server and its client in one session.',
      'What the sandbox refused is said at the end of a result.',
    ]);
    expect(serverInstructions({ workspace: '/w', write: [], allowDomains: [] })).toContain(
      'It can write only to /w and to',
    );
    expect(serverInstructions({ workspace: '/w', write: [], allowDomains: [] })).toContain(
      'lets through nothing (no domain is allowed)',
    );
  });

  it('reaches the client at initialize', async () => {
    const sessions = createProcessSessions({ cwd: root });
    const server = createProcmuxServer(createProcessTools(sessions), {
      sandbox: { workspace: root, write: [], allowDomains: ['example.org'] },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    expect(client.getInstructions()).toContain(`It can write only to ${root} and to`);
    expect(client.getInstructions()).toContain('lets through example.org.');
    await client.close();
    await sessions.dispose();
  });
});
