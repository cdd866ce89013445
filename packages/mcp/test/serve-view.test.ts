import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { assertNoLeakedProcesses } from '@procmux/test-utils';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { serveStdio } from '../src/index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'procmux-serve-view-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

it('serves the view beside the tools, prints its URL on the log, and stops it on close', async () => {
  const logs: string[] = [];
  const handle = await serveStdio({
    cwd: root,
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    view: { port: 0, host: '127.0.0.1' },
    log: (line) => logs.push(line),
  });
  const line = logs.find((l) => l.startsWith('procmux view: '));
  expect(line).toMatch(/^procmux view: http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  const url = line!.slice('procmux view: '.length);
  expect(await get(url)).toBe(200);
  expect(await get(url.replace(/token=.*/, 'token=wrong'))).toBe(403);
  await handle.close('test over');
  await expect(get(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
});

it('fails to start, leaving nothing behind, when the view port is taken', async () => {
  const logs: string[] = [];
  const first = await serveStdio({
    cwd: root,
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    view: { port: 0, host: '127.0.0.1' },
    log: (line) => logs.push(line),
  });
  const port = Number(/:(\d+)\//.exec(logs.find((l) => l.startsWith('procmux view: '))!)![1]);
  try {
    await expect(
      serveStdio({
        cwd: root,
        stdin: new PassThrough(),
        stdout: new PassThrough(),
        view: { port, host: '127.0.0.1' },
        log: () => {},
      }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION', message: expect.stringMatching(/EADDRINUSE/) });
  } finally {
    await first.close();
  }
});
