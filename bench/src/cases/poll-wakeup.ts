// poll() wake-up: a pending poll() must resolve as soon as the program writes, not on a
// tick. The program answers each line on stdin with one line (`x` and a newline: poll()'s
// ANSI stripper holds back an unfinished line, which could still be overwritten by a \r), so
// the figure is the whole round trip (input → program → poll resolves with the `x`): an
// upper bound on the wake-up itself. The raw column is the same round trip on a
// child_process pipe, the floor.
import { spawn } from 'node:child_process';
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { figure, signedMs } from '../format.js';
import { BENCH_MARKER_ENV, benchEnv, runMarker, track, untrack } from '../processes.js';
import { loadSessions } from '../procmux-api.js';
import { median } from '../stats.js';
import { withTimeout } from '../timing.js';

const ECHO_BYTE = "while IFS= read -r line; do printf 'x\\n'; done";
const SAMPLE_TIMEOUT_MS = 5_000;
const TARGET_MS = 5;

export const pollWakeup: BenchCase = {
  id: 'poll-wakeup',
  title: 'poll wake-up: program writes a byte → poll() resolves [child_process pipe round trip]',
  target: `≤ ${TARGET_MS} ms median`,
  async run(ctx): Promise<Measured> {
    const { createProcessSessions } = await loadSessions();
    const runs = ctx.quick ? 20 : 50;
    const sessions = createProcessSessions({ cwd: ctx.tmpDir });
    const raw = spawn('bash', ['-c', ECHO_BYTE], { env: benchEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
    track(raw.pid);
    raw.stdout.setEncoding('utf8');
    try {
      const session = await sessions.start({
        shell: true,
        command: ECHO_BYTE,
        pty: false,
        stdin: 'open',
        env: { [BENCH_MARKER_ENV]: runMarker() },
      });
      const { a, b } = await alternate({
        warmup: 5,
        runs,
        a: async () => {
          const polled = session.poll({ timeoutMs: SAMPLE_TIMEOUT_MS });
          const start = performance.now();
          await session.input('\n');
          const result = await polled;
          const elapsed = performance.now() - start;
          if (!result.stdout.includes('x'))
            throw new Error(`poll() resolved without the byte (${result.state})`);
          return elapsed;
        },
        b: async () => {
          const answered = withTimeout(
            new Promise<void>((resolve) => raw.stdout.once('data', () => resolve())),
            SAMPLE_TIMEOUT_MS,
            'raw round trip',
          );
          const start = performance.now();
          raw.stdin.write('\n');
          await answered;
          return performance.now() - start;
        },
      });
      await session.kill();
      const procmuxMedian = median(a);
      return {
        status: 'measured',
        procmux: figure(a, 'ms'),
        raw: figure(b, 'ms'),
        ratio: signedMs(procmuxMedian - median(b)),
        pass: procmuxMedian <= TARGET_MS,
        notes: [
          `${runs} round trips per side after 5 warm-up pairs (input → read; printf 'x\\n' → poll resolves)`,
        ],
      };
    } finally {
      raw.kill('SIGKILL');
      untrack(raw.pid);
      await sessions.dispose();
    }
  },
};
