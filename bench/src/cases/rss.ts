// Memory under a flood: N pipe sessions each writing far more than the retained-history cap.
// Retention is bounded, so the peak resident set must stay within base + 1.5 × the sum of the
// caps. Runs in a child Node process (rss-child.ts) so the harness's own memory is not counted.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OUTPUT_MEMORY_BYTES_LIMIT, OUTPUT_TOTAL_BYTES_LIMIT } from '@procmux/core-types';
import type { BenchCase, Measured } from '../case.js';
import { fact, num } from '../format.js';
import { NotBuiltError } from '../load.js';
import { benchEnv, track, untrack } from '../processes.js';
import type { RssReport, RssSpec } from '../rss-child.js';
import { withTimeout } from '../timing.js';

const MiB = 2 ** 20;
const HEADROOM = 1.5;

async function runChild(spec: RssSpec, timeoutMs: number): Promise<RssReport> {
  const script = fileURLToPath(new URL('../rss-child.js', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', script, JSON.stringify(spec)], {
    env: benchEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  try {
    const code = await withTimeout(
      new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', resolve);
      }),
      timeoutMs,
      'the RSS child process',
    );
    if (code !== 0)
      throw new Error(`the RSS child exited with ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`);
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as RssReport;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    untrack(child.pid);
  }
}

const mib = (bytes: number) => `${num(bytes / MiB)} MiB`;

export const rss: BenchCase = {
  id: 'rss-32-sessions',
  title: '32 pipe sessions each flooded with 200 MB, default caps: peak RSS',
  target: `≤ base + ${HEADROOM} × Σ caps`,
  async run(ctx): Promise<Measured> {
    const spec: RssSpec = ctx.quick
      ? { sessions: 4, bytesEach: 80e6, cwd: ctx.tmpDir }
      : { sessions: 32, bytesEach: 200e6, cwd: ctx.tmpDir };
    ctx.progress(
      `rss-32-sessions: ${spec.sessions} sessions × ${spec.bytesEach / 1e6} MB in a child process`,
    );
    const report = await runChild(spec, ctx.quick ? 120_000 : 900_000);
    if (report.notBuilt) throw new NotBuiltError(report.notBuilt);
    const caps = spec.sessions * OUTPUT_TOTAL_BYTES_LIMIT.default;
    const growth = report.peakBytes - report.baseBytes;
    const notes = [
      `${spec.sessions} sessions × ${spec.bytesEach / 1e6} MB, layer: ${report.layer}; ` +
        `Σ caps = ${spec.sessions} × ${mib(OUTPUT_TOTAL_BYTES_LIMIT.default)} = ${mib(caps)}; ` +
        `limit ${mib(HEADROOM * caps)} over base; peak ${mib(report.peakBytes)}; one run`,
    ];
    if (report.retainedBytes !== null)
      notes.push(`history retained at the end: ${mib(report.retainedBytes)}`);
    if (ctx.quick) notes.push('quick mode: 4 sessions × 80 MB instead of 32 × 200 MB');
    return {
      status: 'measured',
      procmux: fact(`+${mib(growth)} over base`, [growth / MiB], 'MiB'),
      raw: fact(`base ${mib(report.baseBytes)}`, [report.baseBytes / MiB], 'MiB'),
      ratio: `${num(growth / caps)}× Σ caps`,
      pass: growth <= HEADROOM * caps,
      notes,
    };
  },
};

// The spilled history's budget: the memory windows plus 100 MB for everything else.
const SPILL_HEADROOM_BYTES = 100e6;

export const rssSpilled: BenchCase = {
  id: 'rss-32-spilled',
  title: '32 pipe sessions × 200 MB, default caps: RSS within the memory windows, history exact on disk',
  target: '≤ base + 32 × window + 100 MB; every retained byte paged exact; no file left',
  async run(ctx): Promise<Measured> {
    const spec: RssSpec = ctx.quick
      ? { sessions: 4, bytesEach: 80e6, cwd: ctx.tmpDir, verifySpill: true }
      : { sessions: 32, bytesEach: 200e6, cwd: ctx.tmpDir, verifySpill: true };
    ctx.progress(`rss-32-spilled: ${spec.sessions} sessions × ${spec.bytesEach / 1e6} MB in a child process`);
    const report = await runChild(spec, ctx.quick ? 180_000 : 1_500_000);
    if (report.notBuilt) throw new NotBuiltError(report.notBuilt);
    const spill = report.spill;
    if (spill === undefined) throw new Error('rss-32-spilled: the sessions layer reported no spill figures');
    const window = OUTPUT_MEMORY_BYTES_LIMIT.default;
    const budget = spec.sessions * window + SPILL_HEADROOM_BYTES;
    const growth = report.peakBytes - report.baseBytes;
    const retained = report.retainedBytes ?? 0;
    const expectedRetained = spec.sessions * Math.min(spec.bytesEach, OUTPUT_TOTAL_BYTES_LIMIT.default);
    const exact = spill.mismatches === 0 && spill.pagedBytes === retained && retained === expectedRetained;
    const clean = spill.openFilesAfter === 0 && spill.namesLeft === 0;
    const notes = [
      `${spec.sessions} sessions × ${spec.bytesEach / 1e6} MB; window ${mib(window)}; ` +
        `limit ${mib(budget)} over base; peak ${mib(report.peakBytes)}; one run`,
      `retained ${mib(retained)} (memory ${mib(spill.memoryBytes)}, disk ${mib(spill.diskBytes)}); ` +
        `paged ${mib(spill.pagedBytes)}, ${spill.mismatches} bytes differing`,
      `spill files open: ${spill.openFilesBefore} after the flood, ${spill.openFilesAfter} after dispose(); ` +
        `names left in the spill dir: ${spill.namesLeft}`,
    ];
    if (ctx.quick) notes.push('quick mode: 4 sessions × 80 MB instead of 32 × 200 MB');
    return {
      status: 'measured',
      procmux: fact(`+${mib(growth)} over base`, [growth / MiB], 'MiB'),
      raw: fact(`base ${mib(report.baseBytes)}`, [report.baseBytes / MiB], 'MiB'),
      ratio: `${num(growth / budget)}× budget`,
      pass: growth <= budget && exact && clean,
      notes,
    };
  },
};
