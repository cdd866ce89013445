// A recovered session is a whole session: its screen is rebuilt from the replayed log at the
// recorded size (what tmux itself shows), input typed afterwards shows on it, and polls after
// a restart deliver only what no poll returned before — once, in order — while log() keeps
// the whole history.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import type { ProcessSession } from '@procmux/sessions';
import { openSqliteRecoveryStore } from '@procmux/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeHosts, newHost } from './durable-hosts.js';
import { alive, paneText, sigkill, startHost, stateDir, teardown } from './helpers.js';

afterEach(async () => {
  await disposeHosts();
  await teardown();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const numbered = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^line-\d+$/.test(l));

/** What tmux shows in the pane now, without trailing blank rows. */
function capturePane(dir: string, session: ProcessSession): string[] {
  const tmux = (session.metadata().backendMetadata as { tmux: { session: string } }).tmux;
  const out = execFileSync(
    'tmux',
    ['-S', join(dir, 'tmux', 'tmux.sock'), 'capture-pane', '-p', '-t', tmux.session],
    {
      encoding: 'utf8',
    },
  );
  const rows = out.split('\n').map((l) => l.trimEnd());
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  return rows;
}

async function readRecord(dir: string, id: string) {
  const store = openSqliteRecoveryStore({ path: join(dir, 'state.sqlite') });
  try {
    const entry = await store.checkpoints.get(RECOVERY_NAMESPACE, id);
    return entry ? (JSON.parse(entry.data) as Record<string, unknown>) : undefined;
  } finally {
    store.close();
  }
}

describe.skipIf(process.platform === 'win32')('a recovered tmux session', () => {
  it('has a screen rebuilt from the log at the recorded size, and input typed afterwards shows on it', async () => {
    const dir = stateDir();
    const script = "echo before-$((6*7)); PS1='pm$ ' exec bash --norc --noprofile -i";
    const { child, first } = await startHost<{ id: string; pid: number }>('poll-host.mjs', [
      dir,
      script,
      '100',
      '30',
    ]);
    await expect.poll(() => paneText(dir), { timeout: 10_000 }).toMatch(/before-42\npm\$/);
    await sigkill(child);
    expect(alive(first.pid)).toBe(true);

    const { sessions } = newHost(dir);
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = sessions.get(first.id);
    expect(session.metadata().emulated).toBe(true);
    expect(session.terminalSize).toEqual({ columns: 100, rows: 30 });
    await expect.poll(() => session.screen(), { timeout: 10_000 }).toMatch(/before-42\npm\$ ?$/);
    // The same rows tmux shows for the pane.
    const screen = (await session.screen()).split('\n');
    expect(screen.slice(-capturePane(dir, session).length)).toEqual(capturePane(dir, session));

    await session.input('echo after-$((7*8))\r');
    await expect.poll(() => session.screen(), { timeout: 10_000 }).toMatch(/after-56\npm\$ ?$/);
    expect((await session.screen()).split('\n').slice(-capturePane(dir, session).length)).toEqual(
      capturePane(dir, session),
    );
    await session.kill();
    expect(alive(first.pid)).toBe(false);
  });

  it.each(['sigkill', 'dispose'] as const)(
    'polls after a restart (%s) deliver only what no poll returned before, once, in order; log keeps all',
    async (stop) => {
      const dir = stateDir();
      const script =
        'i=1; while [ $i -le 40 ]; do echo "line-$i"; i=$((i+1)); sleep 0.1; done; sleep 0.3; exit 3';
      const host = await startHost<{ id: string; pid: number }>('poll-host.mjs', [dir, script]);
      const before: string[] = [];
      let answered = 1;
      while (before.length < 8) {
        host.child.stdin!.write('poll\n');
        answered += 1;
        await expect.poll(() => host.lines.length, { timeout: 10_000 }).toBe(answered);
        before.push(...numbered((JSON.parse(host.lines[answered - 1]!) as { stdout: string }).stdout));
        await sleep(100);
      }
      if (stop === 'sigkill') {
        // The acknowledged offset is written throttled (250 ms): wait until the record holds
        // every byte the polls returned (each line and the CR LF the terminal ended it with),
        // then kill the host.
        const delivered = before.reduce((sum, line) => sum + line.length + 2, 0);
        await expect
          .poll(async () => (await readRecord(dir, host.first.id))?.deliveredBytes, { timeout: 5_000 })
          .toBe(delivered);
        await sigkill(host.child);
      } else {
        // At once after the last poll: dispose() writes what the throttle still held.
        host.child.stdin!.write('dispose\n');
        await expect.poll(() => host.lines.at(-1), { timeout: 10_000 }).toBe('{"disposed":true}');
      }
      // The program goes on printing while no host is attached.
      const last = Number(before.at(-1)?.replace('line-', ''));
      await expect.poll(() => paneText(dir), { timeout: 10_000 }).toContain(`line-${last + 4}\n`);

      const { sessions } = newHost(dir);
      const report = await sessions.recover();
      expect(report.outcomes).toMatchObject([{ id: host.first.id, outcome: 'reattached' }]);
      const session = sessions.get(host.first.id);
      const after: string[] = [];
      for (;;) {
        const polled = await session.poll({ timeoutMs: 500 });
        after.push(...numbered(polled.stdout));
        if (polled.state !== 'running' && polled.stdout === '') break;
      }
      expect(await session.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 3 });
      const all = Array.from({ length: 40 }, (_, i) => `line-${i + 1}`);
      expect(before.length).toBeGreaterThanOrEqual(8);
      expect([...before, ...after]).toEqual(all);
      expect(numbered((await session.log({ limit: 1000 })).text)).toEqual(all);
    },
  );
});
