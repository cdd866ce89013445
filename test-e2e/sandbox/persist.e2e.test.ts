// `procmux mcp --sandbox` with exec `persist: true` (issue 29, item 4): the tmux pane's program
// runs in the sandbox, so a write outside the workspace is refused inside the pane and the
// reply says so; its private dir goes when it ends.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertNoLeakedProcesses,
  assertNoSandboxDirs,
  privateTmpdir,
  sandboxDirs,
} from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxedServer, sessionId, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
// The server inherits TMPDIR: its sandboxes' private dirs are made (and checked) here.
const tmp = linux ? privateTmpdir() : '';
let server: SandboxedServer;

beforeAll(async () => {
  if (linux) server = await startSandboxed();
});

afterAll(async () => {
  if (!linux) return;
  try {
    execFileSync('tmux', ['-S', join(server.stateDir, 'tmux', 'tmux.sock'), 'kill-server'], {
      stdio: 'ignore',
    });
  } catch {}
  await server.close();
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!linux)('procmux mcp --sandbox, exec persist: true', () => {
  it('runs the pane program sandboxed: a write outside the workspace is refused there and told', async () => {
    const target = join(server.root, 'outside.txt');
    const started = await server.call('exec', {
      mode: 'session',
      persist: true,
      command: `echo "pid=$$"; echo owned > ${target}; echo kept > in-ws.txt; read x; echo "got-$x"`,
    });
    expect(started.isError).toBe(false);
    expect(started.text).toMatch(/Persisted: it outlives this server\./);
    const id = sessionId(started.text);
    expect(sandboxDirs(tmp)).toHaveLength(1);
    await server.call('process', { action: 'paste', session_id: id, text: 'go' });
    await server.call('process', { action: 'submit', session_id: id });
    const done = await server.call('process', {
      action: 'wait_for',
      session_id: id,
      exit: true,
      timeout: 20_000,
    });
    const all = `${started.text}\n${done.text}`;
    expect(Number(/pid=(\d+)/.exec(all)?.[1])).toBeLessThan(10);
    expect(all).toContain('got-go');
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(server.workspace, 'in-ws.txt'))).toBe(true);
    // Told once, in the first reply after it happened.
    expect(all).toContain(`sandbox: write to ${target} refused`);
  });
});
