// Tail loss at exit: `seq 1 100000; echo __END__` in a PTY, run many times. node-pty alone
// loses the last kilobytes in a share of runs (libuv treats POLLHUP after a partial read as
// EOF, see notes/pty-tail-loss.md); procmux's PTY adapter must lose nothing.
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { fact, num } from '../format.js';
import { benchEnv, track, untrack } from '../processes.js';
import { loadPtyPosix } from '../procmux-api.js';
import { rawPty } from '../raw.js';
import { median } from '../stats.js';
import { withTimeout } from '../timing.js';

const LAST = 100_000;
const COMMAND = `seq 1 ${LAST}; echo __END__`;
const RUN_TIMEOUT_MS = 30_000;

/** What the terminal delivers: every number and the marker, each line ending in \r\n. */
function expectedLength(): number {
  let length = '__END__\r\n'.length;
  for (let n = 1; n <= LAST; n++) length += String(n).length + 2;
  return length;
}

interface Tally {
  lost: number;
  maxMissing: number;
  millis: number[];
}

function record(tally: Tally, output: string, expected: number, start: number): number {
  const elapsed = performance.now() - start;
  tally.millis.push(elapsed);
  if (!output.includes(`${LAST}\r\n__END__`) || output.length < expected) {
    tally.lost++;
    tally.maxMissing = Math.max(tally.maxMissing, expected - output.length);
  }
  return elapsed;
}

function describeTally(tally: Tally, runs: number): string {
  const missing = tally.lost > 0 ? ` (up to ${num(tally.maxMissing / 1000)} KB missing)` : '';
  return `${tally.lost}/${runs} lost${missing}`;
}

export const tailLoss: BenchCase = {
  id: 'tail-loss',
  title: 'tail loss: `seq 1 100000; echo __END__` in a PTY [node-pty alone]',
  target: '0 lost (raw loses some)',
  async run(ctx): Promise<Measured> {
    const { createPtyAdapter } = await loadPtyPosix();
    const runs = ctx.quick ? 20 : 100;
    const expected = expectedLength();
    const ours: Tally = { lost: 0, maxMissing: 0, millis: [] };
    const raw: Tally = { lost: 0, maxMissing: 0, millis: [] };
    await alternate({
      warmup: 0,
      runs,
      onPair: (i) => {
        if ((i + 1) % 10 === 0) ctx.progress(`tail-loss: ${i + 1}/${runs}`);
      },
      a: async () => {
        const start = performance.now();
        const adapter = await createPtyAdapter({ command: COMMAND, cols: 120, rows: 30, env: benchEnv() });
        track(adapter.pid);
        const chunks: string[] = [];
        const stop = adapter.onStdout((chunk) => chunks.push(chunk));
        try {
          await withTimeout(adapter.wait(), RUN_TIMEOUT_MS, 'procmux PTY adapter wait()');
        } catch (error) {
          await adapter.kill('force');
          throw error;
        } finally {
          stop();
          adapter.dispose();
          untrack(adapter.pid);
        }
        return record(ours, chunks.join(''), expected, start);
      },
      b: async () => {
        const start = performance.now();
        const chunks: string[] = [];
        await rawPty(COMMAND, { onData: (chunk) => chunks.push(chunk) }, RUN_TIMEOUT_MS);
        return record(raw, chunks.join(''), expected, start);
      },
    });
    return {
      status: 'measured',
      procmux: fact(describeTally(ours, runs), [ours.lost], 'lost runs'),
      raw: fact(describeTally(raw, runs), [raw.lost], 'lost runs'),
      ratio: `${ours.lost} vs ${raw.lost}`,
      pass: ours.lost === 0,
      notes: [
        `${runs} runs per side, alternating; a run is lost when any byte of the ${num(expected / 1000)} KB is missing; ` +
          `median run ${num(median(ours.millis))} ms procmux, ${num(median(raw.millis))} ms raw` +
          (raw.lost === 0 ? '; raw lost nothing this time, so this run does not show the fix' : ''),
      ],
    };
  },
};
