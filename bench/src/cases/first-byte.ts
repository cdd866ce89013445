// Spawn to first byte of `echo hi`: what procmux adds to starting a short command.
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, signedMs } from '../format.js';
import { expectSuccess, supervisedRun } from '../procmux.js';
import { loadSupervisor, quietLogger } from '../procmux-api.js';
import { rawPipe, rawPty } from '../raw.js';
import { median } from '../stats.js';

const COMMAND = 'echo hi';
const RUN_TIMEOUT_MS = 15_000;
const ALLOWANCE_MS = 2;

/** Milliseconds from `start` to the first output chunk; throws if none came. */
function firstByteClock(start: number) {
  let at: number | undefined;
  return {
    onData: (_chunk: string) => {
      at ??= performance.now();
    },
    elapsed(): number {
      if (at === undefined) throw new Error(`${COMMAND} produced no output`);
      return at - start;
    },
  };
}

async function measure(mode: 'pipe' | 'pty', ctx: BenchContext): Promise<Measured> {
  const { ProcessSupervisor } = await loadSupervisor();
  const supervisor = new ProcessSupervisor({ logger: quietLogger(), watchdog: true });
  const runs = ctx.quick ? 15 : 50;
  try {
    const { a, b } = await alternate({
      warmup: 3,
      runs,
      onPair: (i) => {
        if ((i + 1) % 10 === 0) ctx.progress(`first-byte-${mode}: ${i + 1}/${runs}`);
      },
      a: async () => {
        const clock = firstByteClock(performance.now());
        const exit = await supervisedRun(
          supervisor,
          { command: COMMAND, mode, onStdout: clock.onData },
          RUN_TIMEOUT_MS,
        );
        expectSuccess(exit, `procmux ${mode} ${COMMAND}`);
        return clock.elapsed();
      },
      b: async () => {
        const clock = firstByteClock(performance.now());
        const run = mode === 'pipe' ? rawPipe : rawPty;
        expectSuccess(await run(COMMAND, { onData: clock.onData }, RUN_TIMEOUT_MS), `raw ${mode} ${COMMAND}`);
        return clock.elapsed();
      },
    });
    const extra = median(a) - median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'ms'),
      raw: figure(b, 'ms'),
      ratio: signedMs(extra),
      pass: extra <= ALLOWANCE_MS,
      notes: [`median of ${runs} runs per side after 3 warm-up pairs`],
    };
  } finally {
    await supervisor.cancelAll();
    await supervisor.dispose?.();
  }
}

export const firstBytePipe: BenchCase = {
  id: 'first-byte-pipe',
  title: 'spawn → first byte of `echo hi` on pipes [child_process]',
  target: `≤ raw + ${ALLOWANCE_MS} ms`,
  run: (ctx) => measure('pipe', ctx),
};

export const firstBytePty: BenchCase = {
  id: 'first-byte-pty',
  title: 'spawn → first byte of `echo hi` in a PTY [node-pty]',
  target: `≤ raw + ${ALLOWANCE_MS} ms`,
  run: (ctx) => measure('pty', ctx),
};
