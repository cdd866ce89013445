// Session throughput on pipes and in a PTY without a screen: a flood read through the
// supervisor into an OutputLog that is drained as it fills (the poll path), against reading
// the same flood with child_process or node-pty directly.
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, num } from '../format.js';
import { expectSuccess, supervisedRun } from '../procmux.js';
import { loadRegistry, loadSupervisor, quietLogger } from '../procmux-api.js';
import { rawFlood } from '../raw.js';
import { median } from '../stats.js';
import { floodCommand } from '../workload.js';

const RUN_TIMEOUT_MS = 180_000;

interface ThroughputSpec {
  id: string;
  title: string;
  mode: 'pipe' | 'pty';
  fullBytes: number;
  quickBytes: number;
  minRatio: number;
}

async function measure(spec: ThroughputSpec, ctx: BenchContext): Promise<Measured> {
  const { OutputLog } = await loadRegistry();
  const { ProcessSupervisor } = await loadSupervisor();
  const bytes = ctx.quick ? spec.quickBytes : spec.fullBytes;
  const command = floodCommand(bytes);
  const supervisor = new ProcessSupervisor({ logger: quietLogger(), watchdog: true });
  // A PTY turns each \n into \r\n: both sides receive the same larger count.
  const expected = spec.mode === 'pty' ? bytes + bytes / 64 : bytes;
  const shortfalls: string[] = [];
  let rawShort = 0;
  const mbPerSecond = (start: number) => bytes / 1e6 / ((performance.now() - start) / 1000);
  try {
    const { a, b } = await alternate({
      warmup: 1,
      runs: 5,
      onPair: (i) => ctx.progress(`${spec.id}: pair ${i + 1}/5`),
      a: async () => {
        const log = new OutputLog({});
        let received = 0;
        const onStdout = (chunk: string) => {
          received += chunk.length;
          log.append('stdout', chunk);
          log.drain();
        };
        const onStderr = (chunk: string) => {
          log.append('stderr', chunk);
          log.drain();
        };
        const start = performance.now();
        const exit = await supervisedRun(
          supervisor,
          // As a session spawns: the log keeps the history, the run's own capture is off.
          { command, mode: spec.mode, onStdout, onStderr, maxCaptureBytes: 0 },
          RUN_TIMEOUT_MS,
        );
        const rate = mbPerSecond(start);
        expectSuccess(exit, `procmux ${spec.mode} flood`);
        if (received !== expected) shortfalls.push(`procmux delivered ${received} of ${expected} bytes`);
        return rate;
      },
      b: async () => {
        const run = await rawFlood(spec.mode, command, RUN_TIMEOUT_MS);
        expectSuccess(run.code, `raw ${spec.mode} flood`);
        if (run.received < expected) rawShort++;
        return bytes / 1e6 / (run.ms / 1000);
      },
    });
    const ratio = median(a) / median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'MB/s'),
      raw: figure(b, 'MB/s'),
      ratio: `${num(ratio)}×`,
      pass: ratio >= spec.minRatio && shortfalls.length === 0,
      notes: [
        `${bytes / 1e6} MB per run, 1 warm-up + 5 counted pairs` +
          (rawShort > 0 ? `; raw lost the tail in ${rawShort} of 6 runs` : ''),
        ...shortfalls,
      ],
    };
  } finally {
    await supervisor.cancelAll();
    await supervisor.dispose?.();
  }
}

function throughputCase(spec: ThroughputSpec): BenchCase {
  return {
    id: spec.id,
    title: spec.title,
    target: `≥ ${spec.minRatio}× raw`,
    run: (ctx) => measure(spec, ctx),
  };
}

export const pipeThroughput = throughputCase({
  id: 'pipe-throughput',
  title: 'pipe session throughput, 200 MB through OutputLog + drain [child_process pipe read]',
  mode: 'pipe',
  fullBytes: 200e6,
  quickBytes: 50e6,
  minRatio: 0.9,
});

export const ptyThroughput = throughputCase({
  id: 'pty-throughput',
  title: 'PTY session throughput, 50 MB, no screen, through OutputLog + drain [node-pty onData]',
  mode: 'pty',
  fullBytes: 50e6,
  quickBytes: 10e6,
  minRatio: 0.9,
});
