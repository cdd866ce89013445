// What a one-shot's terminal stdin costs: `echo hi` started through a sessions registry
// until it exits, with stdin 'terminal' (what exec one_shot uses on POSIX since issue 17)
// against stdin 'open' on a pipe (what it used before), alternating in the same run.
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, signedMs } from '../format.js';
import { benchEnv } from '../processes.js';
import { loadSessions, quietLogger } from '../procmux-api.js';
import { median } from '../stats.js';
import { withTimeout } from '../timing.js';

const COMMAND = 'echo hi';
const RUN_TIMEOUT_MS = 15_000;
const ALLOWANCE_MS = 2;

async function measure(ctx: BenchContext): Promise<Measured> {
  const { createProcessSessions } = await loadSessions();
  const sessions = createProcessSessions({ cwd: ctx.tmpDir, logger: quietLogger() });
  const runs = ctx.quick ? 15 : 50;
  const once = async (stdin: 'terminal' | 'open') => {
    const began = performance.now();
    const session = await sessions.start({ shell: true, command: COMMAND, env: benchEnv(), stdin });
    const exit = await withTimeout(session.wait(), RUN_TIMEOUT_MS, `${COMMAND} with stdin ${stdin}`);
    if (exit.exitCode !== 0) throw new Error(`${COMMAND} with stdin ${stdin} exited with ${exit.exitCode}`);
    return performance.now() - began;
  };
  try {
    const { a, b } = await alternate({
      warmup: 3,
      runs,
      onPair: (i) => {
        if ((i + 1) % 10 === 0) ctx.progress(`one-shot-stdin: ${i + 1}/${runs}`);
      },
      a: () => once('terminal'),
      b: () => once('open'),
    });
    const extra = median(a) - median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'ms'),
      raw: figure(b, 'ms'),
      ratio: `${signedMs(extra)} (${(median(a) / median(b)).toFixed(2)}×)`,
      pass: extra <= ALLOWANCE_MS,
      notes: [
        `median of ${runs} starts per side after 3 warm-up pairs; start → exit of ${COMMAND} in a sessions registry; raw column: stdin on a pipe (the one-shot before)`,
      ],
    };
  } finally {
    await sessions.dispose();
  }
}

export const oneShotStdin: BenchCase = {
  id: 'one-shot-stdin',
  title: '`echo hi` start → exit with a terminal stdin [stdin on a pipe]',
  target: `≤ pipe + ${ALLOWANCE_MS} ms`,
  run: measure,
};
