// Throughput on the path a user takes: `createProcessSessions` with default options,
// `sessions.start({ command: 'bash', args: ['-c', flood] })`, `wait()`. Everything a session
// does per chunk counts here (byte log, transcript index, timeline, events; for a PTY the
// terminal screen too), against reading the same flood with child_process or node-pty.
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, num } from '../format.js';
import { countMajorGcs } from '../gc-count.js';
import { benchEnv } from '../processes.js';
import { loadSessions, quietLogger } from '../procmux-api.js';
import { rawFlood } from '../raw.js';
import { median } from '../stats.js';
import { withTimeout } from '../timing.js';
import { floodCommand } from '../workload.js';

const RUN_TIMEOUT_MS = 180_000;

// Counted pairs: the median of 5 moved 0.83–1.23× (pipe) and 0.71–0.98× (PTY) between full
// runs on an idle 2-core VM (2026-12-05, ten runs), more than any change it was meant to show;
// 15 pairs cost ~25 s a case. --quick keeps 5.
const FULL_PAIRS = 15;
const QUICK_PAIRS = 5;

interface SessionsThroughputSpec {
  id: string;
  title: string;
  mode: 'pipe' | 'pty';
  fullBytes: number;
  quickBytes: number;
  minRatio: number;
}

async function measure(spec: SessionsThroughputSpec, ctx: BenchContext): Promise<Measured> {
  const { createProcessSessions } = await loadSessions();
  const bytes = ctx.quick ? spec.quickBytes : spec.fullBytes;
  const command = floodCommand(bytes);
  // A PTY turns each \n into \r\n: both sides receive the same larger count.
  const expected = spec.mode === 'pty' ? bytes + bytes / 64 : bytes;
  const sessions = createProcessSessions({ cwd: ctx.tmpDir, logger: quietLogger() });
  const shortfalls: string[] = [];
  let rawShort = 0;
  const mbPerSecond = (start: number) => bytes / 1e6 / ((performance.now() - start) / 1000);
  const pairs = ctx.quick ? QUICK_PAIRS : FULL_PAIRS;
  const gcs = countMajorGcs();
  try {
    const { a, b } = await alternate({
      warmup: 1,
      runs: pairs,
      onPair: (i) => ctx.progress(`${spec.id}: pair ${i + 1}/${pairs}`),
      a: () =>
        gcs.during('procmux', async () => {
          const start = performance.now();
          const session = await sessions.start({
            command: 'bash',
            args: ['-c', command],
            env: benchEnv(),
            ...(spec.mode === 'pty' ? { pty: true } : {}),
          });
          const exit = await withTimeout(session.wait(), RUN_TIMEOUT_MS, `sessions ${spec.mode} flood`);
          const rate = mbPerSecond(start);
          if (exit.exitCode !== 0)
            throw new Error(`sessions ${spec.mode} flood exited with ${exit.exitCode}`);
          const total = session.metadata?.().totalBytes;
          if (total !== expected) shortfalls.push(`sessions received ${total} of ${expected} bytes`);
          return rate;
        }),
      b: () =>
        gcs.during('raw', async () => {
          const run = await rawFlood(spec.mode, command, RUN_TIMEOUT_MS);
          if (run.code !== 0) throw new Error(`raw ${spec.mode} flood exited with ${run.code}`);
          if (run.received < expected) rawShort++;
          return bytes / 1e6 / (run.ms / 1000);
        }),
    });
    // The observer's entries arrive after the run that caused them.
    await new Promise((resolve) => setImmediate(resolve));
    const gc = gcs.counts();
    const ratio = median(a) / median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'MB/s'),
      raw: figure(b, 'MB/s'),
      ratio: `${num(ratio)}×`,
      pass: ratio >= spec.minRatio && shortfalls.length === 0,
      notes: [
        `${bytes / 1e6} MB per run, 1 warm-up + ${pairs} counted pairs; default options` +
          (spec.mode === 'pty' ? ' (a PTY session has a terminal screen)' : '') +
          (rawShort > 0 ? `; raw lost the tail in ${rawShort} of ${pairs + 1} runs` : '') +
          `; full GCs during the runs: procmux ${gc.procmux ?? 0}, raw ${gc.raw ?? 0}`,
        ...shortfalls,
      ],
    };
  } finally {
    gcs.dispose();
    await sessions.dispose();
  }
}

function sessionsThroughputCase(spec: SessionsThroughputSpec): BenchCase {
  return {
    id: spec.id,
    title: spec.title,
    target: `≥ ${spec.minRatio}× raw`,
    run: (ctx) => measure(spec, ctx),
  };
}

export const sessionsPipeThroughput = sessionsThroughputCase({
  id: 'sessions-pipe-throughput',
  title: 'pipe flood, 200 MB, through createProcessSessions (default options) [child_process pipe read]',
  mode: 'pipe',
  fullBytes: 200e6,
  quickBytes: 50e6,
  minRatio: 0.95,
});

export const sessionsPtyThroughput = sessionsThroughputCase({
  id: 'sessions-pty-throughput',
  title: 'PTY flood, 50 MB, through createProcessSessions (default options) [node-pty onData]',
  mode: 'pty',
  fullBytes: 50e6,
  quickBytes: 10e6,
  minRatio: 0.95,
});
