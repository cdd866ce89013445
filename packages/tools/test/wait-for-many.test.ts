import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closingHarness, type Harness, idOf, lastLine } from './helpers.js';

let h: Harness | undefined;
const harness = closingHarness(() => {
  h = undefined;
});

async function daemon(command: string): Promise<string> {
  h ??= harness({ startupWaitMs: 0 });
  return idOf(await h.exec({ command, mode: 'daemon' }));
}

/** A loopback port nobody listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('wait_for with several conditions', () => {
  it('stops early on fail_pattern and says which fired', async () => {
    const id = await daemon('echo building; sleep 0.3; echo "error: missing semicolon"; sleep 30');
    const r = await h!.proc({
      action: 'wait_for',
      session_id: id,
      pattern: 'build ok',
      fail_pattern: '^error: .*',
      timeout: 20_000,
    });
    expect(r.text).toContain(
      'Stopped early: the failure pattern /^error: .*/ matched: "error: missing semicolon".',
    );
    expect(r.data.wait).toMatchObject({
      outcome: 'failed',
      fired: 'fail_pattern',
      match: 'error: missing semicolon',
    });
  });

  it('the first of pattern and exit wins: here the exit', async () => {
    const id = await daemon('echo nope; exit 3');
    const r = await h!.proc({
      action: 'wait_for',
      session_id: id,
      pattern: 'never',
      exit: true,
      timeout: 20_000,
    });
    expect(r.data.wait).toMatchObject({ outcome: 'exited', fired: 'exit' });
    expect(lastLine(r.text)).toBe('Process exited with code 3.');
  });

  it('a loopback port accepting connections ends the wait', async () => {
    const port = await freePort();
    const id = await daemon(
      `sleep 0.5; exec python3 -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1', ${port})); s.listen(); time.sleep(30)"`,
    );
    const r = await h!.proc({ action: 'wait_for', session_id: id, port, pattern: 'never', timeout: 20_000 });
    expect(r.text).toContain(`Port ${port} on loopback accepts connections.`);
    expect(r.data.wait).toMatchObject({ outcome: 'port', fired: 'port' });
  });

  it.skipIf(process.platform !== 'linux')(
    'input: true returns once the program waits for input',
    async () => {
      const id = await daemon(`python3 -c "import time; time.sleep(0.5); input('name? ')"`);
      const r = await h!.proc({
        action: 'wait_for',
        session_id: id,
        input: true,
        idle_ms: 15_000,
        timeout: 20_000,
      });
      expect(r.data.wait).toMatchObject({ outcome: 'input', fired: 'input' });
      expect(lastLine(r.text)).toBe('Process is waiting for input: "name?".');
    },
  );

  it('times out naming every condition that did not come', async () => {
    const port = await freePort();
    const id = await daemon('sleep 30');
    const r = await h!.proc({ action: 'wait_for', session_id: id, pattern: 'x', port, timeout: 600 });
    expect(r.text).toContain(
      `Timed out after 600 ms: /x/ did not appear; port ${port} did not accept connections.`,
    );
  });

  // Only output no earlier call returned is matched: a wait for a line a reply already showed
  // ends without it, and says where that line is.
  it('names a matching line an earlier reply returned when the wait ends without one', async () => {
    const id = await daemon('echo "ready on 8000"; read -r line; echo "got $line"');
    const waitFor = (pattern: string, timeout: number) =>
      h!.proc({ action: 'wait_for', session_id: id, pattern, timeout });
    expect((await waitFor('ready on \\d+', 20_000)).data.wait).toMatchObject({ fired: 'pattern' });
    const again = await waitFor('ready on \\d+', 600);
    expect(again.data.wait).toMatchObject({ fired: 'timeout' });
    expect(again.text).toContain(
      'Timed out after 600 ms: /ready on \\d+/ did not appear.\n' +
        '/ready on \\d+/ matches line 1 of the log, "ready on 8000", which an earlier reply returned: ' +
        'wait_for matches only output no earlier call returned.',
    );
    await h!.proc({ action: 'write', session_id: id, data: 'go\n' });
    const ended = await waitFor('ready', 20_000);
    expect(ended.data.wait).toMatchObject({ fired: 'exit' });
    expect(ended.text).toContain(
      'The process ended before /ready/ appeared.\n/ready/ matches line 1 of the log',
    );
    expect((await waitFor('never', 20_000)).text).not.toContain('matches line');
  });

  it('reports progress while it waits, and a cancel ends the wait at once', async () => {
    h ??= harness({ startupWaitMs: 0 });
    const id = idOf(await h.exec({ command: 'sleep 60', mode: 'daemon' }));
    const progress: number[] = [];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 11_000);
    const started = Date.now();
    const r = await h.tools.process.run(
      { action: 'wait_for', session_id: id, exit: true, timeout: 600_000 },
      { signal: controller.signal, onProgress: (p) => progress.push(p.waitedMs) },
    );
    expect(r.data.wait).toMatchObject({ outcome: 'cancelled', fired: 'cancelled' });
    // Generous against a hang: the wait was for 10 minutes.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  }, 60_000);
});
