// retryUnreachable: a lone server looks again, with backoff and a bound, for the persisted
// sessions its startup recover() could not look up; each outcome is logged once.
import type { RecoveryReport } from '@procmux/sessions';
import { waitFor } from '@procmux/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { retryUnreachable } from '../src/recover-retry.js';

const unreachable = (id: string) => ({
  id,
  outcome: 'unknown' as const,
  state: 'running' as const,
  written: false,
  code: 'ERR_RECOVERY_UNREACHABLE' as const,
  reason: `could not look up session ${id} now: tmux did not answer`,
});
const report = (...outcomes: unknown[]) => ({ outcomes }) as unknown as RecoveryReport;

/** A recover() that answers `answer` and counts its calls. */
function counted(answer: (call: number) => RecoveryReport) {
  const box = { calls: 0 };
  return {
    box,
    recover: async () => {
      box.calls += 1;
      return answer(box.calls);
    },
  };
}

describe('retryUnreachable', () => {
  it('does nothing when every record was looked up', async () => {
    const lines: string[] = [];
    const fake = counted(() => report());
    const retry = retryUnreachable(
      fake,
      report({ id: 'a', outcome: 'reattached' }),
      (l) => lines.push(l),
      [1],
    );
    await retry.dispose();
    expect(lines).toEqual([]);
    expect(fake.box.calls).toBe(0);
  });

  it('looks again until the record comes back, logging what came back once', async () => {
    const lines: string[] = [];
    const answers = [report(unreachable('a')), report({ id: 'a', outcome: 'reattached' })];
    const fake = counted((call) => answers[call - 1]!);
    retryUnreachable(fake, report(unreachable('a')), (l) => lines.push(l), [1, 1, 1, 1]);
    await waitFor(() => lines.length === 2, 5_000, 'the second log line');
    expect(fake.box.calls).toBe(2);
    expect(lines).toEqual([
      'procmux mcp: could not look up 1 persisted session(s) yet (a): could not look up session a now: tmux did not answer; trying again',
      'procmux mcp: recovered 1 persisted session(s) on a later try (a)',
    ]);
  });

  it('says why a record it stopped looking for did not come back: ended meanwhile, or no room', async () => {
    const lines: string[] = [];
    const first = report(unreachable('a'), unreachable('b'), unreachable('c'), unreachable('d'));
    const answers = [
      report(
        { id: 'a', outcome: 'terminal', state: 'exited', exitCode: 0, written: false },
        {
          id: 'b',
          outcome: 'unknown',
          state: 'running',
          written: false,
          code: 'ERR_RECOVERY_LIMIT',
          reason: 'maxSessions (1) live sessions run here; not re-attached',
        },
        { id: 'c', outcome: 'attached', state: 'running', written: false },
        unreachable('d'),
      ),
      report({ id: 'd', outcome: 'reattached', state: 'running', written: true }),
    ];
    const fake = counted((call) => answers[call - 1]!);
    retryUnreachable(fake, first, (l) => lines.push(l), [1, 1, 1]);
    await waitFor(() => lines.length === 5, 5_000, 'a line for each record');
    expect(lines.slice(1)).toEqual([
      'procmux mcp: recovered 1 persisted session(s) on a later try (c)',
      'procmux mcp: 1 persisted session(s) had ended meanwhile: a',
      'procmux mcp: 1 persisted session(s) found but not recovered (b): maxSessions (1) live sessions run here; not re-attached; the next server start tries again',
      'procmux mcp: recovered 1 persisted session(s) on a later try (d)',
    ]);
    expect(fake.box.calls).toBe(2);
  });

  it('gives up after its last delay and says so; dispose() stops it early', async () => {
    const lines: string[] = [];
    const fake = counted(() => report(unreachable('a')));
    retryUnreachable(fake, report(unreachable('a')), (l) => lines.push(l), [1, 1]);
    await waitFor(() => lines.length === 2, 5_000, 'the give-up line');
    expect(fake.box.calls).toBe(2);
    expect(lines[1]).toBe(
      'procmux mcp: still could not look up 1 persisted session(s) (a); the next server start tries again',
    );

    vi.useFakeTimers();
    try {
      const later = counted(() => report(unreachable('b')));
      const stopped = retryUnreachable(later, report(unreachable('b')), () => {}, [20]);
      await stopped.dispose();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(later.box.calls).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('dispose() settles only once a recover() in flight has ended, and logs nothing after', async () => {
    const lines: string[] = [];
    const gate: { started: boolean; release: () => void } = { started: false, release: () => {} };
    const blocked = {
      recover: async () => {
        gate.started = true;
        await new Promise<void>((resolve) => {
          gate.release = resolve;
        });
        return report(unreachable('a'));
      },
    };
    const retry = retryUnreachable(blocked, report(unreachable('a')), (l) => lines.push(l), [1]);
    await waitFor(() => gate.started, 5_000, 'the retry to start');
    let settled = false;
    const disposing = retry.dispose().then(() => {
      settled = true;
    });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(settled).toBe(false);
    gate.release();
    await disposing;
    expect(lines).toHaveLength(1);
  });
});
