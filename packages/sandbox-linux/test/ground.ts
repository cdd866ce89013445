// The ground of the real-sandbox tests: a workspace under a root of its own, an HTTP server on
// the host's loopback that counts what reaches it, and a teardown that finds no process and no
// sandbox dir left. Registers its hooks in the calling file.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoLeakedProcesses, assertNoSandboxDirs, privateTmpdir } from '@procmux/test-utils';
import { afterAll, beforeAll } from 'vitest';
import type { SessionSandbox } from '../src/session-sandbox.js';

export interface SandboxGround {
  root: string;
  /** The sandbox's workspace (writable inside). */
  ws: string;
  /** The counting server's port on 127.0.0.1. */
  port(): number;
  /** Requests that reached it so far. */
  requests(): number;
}

/**
 * Collects a sandboxed child's output, each chunk also fed to the sandbox's refusal scanner
 * (as a session does), until it closes.
 */
export async function scannedRun(
  child: ChildProcessWithoutNullStreams,
  box: Pick<SessionSandbox, 'scan'>,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    box.scan('stdout', d.toString());
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    box.scan('stderr', d.toString());
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { stdout, stderr, code };
}

/** This process's environment without unset entries: a program's environment to wrap(). */
export function hostEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return env;
}

export function sandboxGround(prefix: string, body: string): SandboxGround {
  // Every sandbox of the file makes its private dir here: none may be left at the end.
  const tmp = privateTmpdir();
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  let port = 0;
  let requests = 0;
  const server = createServer((_q, r) => {
    requests += 1;
    r.end(body);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
    await assertNoLeakedProcesses();
    await assertNoSandboxDirs(tmp);
    rmSync(tmp, { recursive: true, force: true });
  });
  return { root, ws, port: () => port, requests: () => requests };
}
