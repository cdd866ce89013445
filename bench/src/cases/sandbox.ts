// A session in the OS sandbox (`sandbox: true`, @procmux/sandbox-linux) against the same
// session unsandboxed, in one run: first byte of `echo hi` and pipe throughput of a flood.
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, num, signedMs } from '../format.js';
import { median } from '../stats.js';
import { floodCommand } from '../workload.js';

const FIRST_BYTE_ALLOWANCE_MS = 15;
const MIN_THROUGHPUT_RATIO = 0.9;

interface Session {
  poll(options: { timeoutMs: number }): Promise<{ stdout: string; stderr: string; state: string }>;
  wait(): Promise<{ exitCode: number | null }>;
  metadata(): { totalBytes: number };
}
interface Sessions {
  start(request: Record<string, unknown>): Promise<Session>;
  dispose(): Promise<void>;
}

async function registry(ctx: BenchContext): Promise<Sessions> {
  const api = (await import('@procmux/sessions')) as unknown as {
    createProcessSessions(options: Record<string, unknown>): Sessions;
  };
  return api.createProcessSessions({ cwd: ctx.tmpDir, limits: { maxOutputBytes: 256 * 1024 * 1024 } });
}

async function firstByte(sessions: Sessions, sandbox: boolean): Promise<number> {
  const start = performance.now();
  const session = await sessions.start({ command: 'echo hi', shell: true, sandbox });
  // A session that ended without a byte fails the case (it spun here for ever once, when
  // `echo hi` without `shell` was a program not found inside the sandbox: exit 127, no output).
  for (;;) {
    const page = await session.poll({ timeoutMs: 5_000 });
    if (page.stdout !== '') break;
    if (page.state !== 'running' && page.state !== 'starting')
      throw new Error(`echo hi printed nothing (${page.state}): ${page.stderr}`);
  }
  const took = performance.now() - start;
  if ((await session.wait()).exitCode !== 0) throw new Error('echo hi failed');
  return took;
}

/** Rates of one flood: from the start (bwrap's start included) and from the first byte on. */
interface Rates {
  fromStart: number;
  fromFirstByte: number;
}

async function throughput(ctx: BenchContext, sandbox: boolean, bytes: number): Promise<Rates> {
  // A registry per flood: in one registry retaining every earlier flood (spilled to disk), later
  // floods of both sides ran ~2x slower, and the median of a few pairs flipped between runs.
  const sessions = await registry(ctx);
  try {
    return await flood(sessions, sandbox, bytes);
  } finally {
    await sessions.dispose();
  }
}

async function flood(sessions: Sessions, sandbox: boolean, bytes: number): Promise<Rates> {
  const start = performance.now();
  const session = await sessions.start({ command: floodCommand(bytes), shell: true, sandbox });
  // The first poll returns at the first byte: the start's cost is sandbox-first-byte's figure.
  const first = await session.poll({ timeoutMs: 30_000 });
  if (first.stdout === '') throw new Error(`the flood printed nothing (${first.state}): ${first.stderr}`);
  const flowing = performance.now();
  if ((await session.wait()).exitCode !== 0) throw new Error('flood failed');
  const end = performance.now();
  if (session.metadata().totalBytes !== bytes)
    throw new Error(`got ${session.metadata().totalBytes} of ${bytes} bytes`);
  const mb = bytes / 1e6;
  return { fromStart: mb / ((end - start) / 1000), fromFirstByte: mb / ((end - flowing) / 1000) };
}

async function measureFirstByte(ctx: BenchContext): Promise<Measured> {
  const sessions = await registry(ctx);
  const runs = ctx.quick ? 10 : 30;
  try {
    const { a, b } = await alternate({
      warmup: 2,
      runs,
      onPair: (i) => ctx.progress(`sandbox-first-byte: ${i + 1}/${runs}`),
      a: () => firstByte(sessions, true),
      b: () => firstByte(sessions, false),
    });
    const extra = median(a) - median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'ms'),
      raw: figure(b, 'ms'),
      ratio: signedMs(extra),
      pass: extra <= FIRST_BYTE_ALLOWANCE_MS,
      notes: [
        `median of ${runs} starts per side; sandbox without allowed domains (the target starts once its forwarder listens)`,
      ],
    };
  } finally {
    await sessions.dispose();
  }
}

async function measureThroughput(ctx: BenchContext): Promise<Measured> {
  const bytes = (ctx.quick ? 16 : 64) * 1024 * 1024;
  // Each flood takes ~0.15 s here: 11 pairs, as 5 left the medians at the mercy of one slow one.
  const runs = ctx.quick ? 5 : 11;
  const { a, b } = await alternate({
    warmup: 1,
    runs,
    onPair: (i) => ctx.progress(`sandbox-throughput: pair ${i + 1}/${runs}`),
    a: () => throughput(ctx, true, bytes),
    b: () => throughput(ctx, false, bytes),
  });
  const flowing = (rates: Rates[]) => rates.map((r) => r.fromFirstByte);
  const ratio = median(flowing(a)) / median(flowing(b));
  const fromStart = median(a.map((r) => r.fromStart)) / median(b.map((r) => r.fromStart));
  return {
    status: 'measured',
    procmux: figure(flowing(a), 'MB/s'),
    raw: figure(flowing(b), 'MB/s'),
    ratio: `${num(ratio)}×`,
    pass: ratio >= MIN_THROUGHPUT_RATIO,
    notes: [
      `${bytes / 1024 / 1024} MiB per run, ${runs} pairs after 1 warm-up, first byte to exit (the start is sandbox-first-byte's)`,
      `session start to exit, bwrap's start included: ${num(fromStart)}×`,
    ],
  };
}

export const sandboxFirstByte: BenchCase = {
  id: 'sandbox-first-byte',
  title: 'session start → first byte of `echo hi` in the OS sandbox [the same session unsandboxed]',
  target: `≤ raw + ${FIRST_BYTE_ALLOWANCE_MS} ms`,
  run: measureFirstByte,
};

export const sandboxThroughput: BenchCase = {
  id: 'sandbox-throughput',
  title: 'pipe session throughput in the OS sandbox [the same session unsandboxed]',
  target: `≥ ${MIN_THROUGHPUT_RATIO}× raw`,
  run: measureThroughput,
};
