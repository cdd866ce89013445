// Runs in its own Node process for the RSS case, so that its peak resident set is the cost of
// the sessions alone: loads procmux, measures a base, floods N pipe sessions with default
// caps, and prints one JSON line with the base and the peak. Started by cases/rss.ts.
import { readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isNotBuilt } from './load.js';
import { BENCH_MARKER_ENV, benchEnv, runMarker } from './processes.js';
import { loadRegistry, loadSessions, loadSupervisor, quietLogger } from './procmux-api.js';
import { FLOOD_LINE, floodCommand } from './workload.js';

export interface RssSpec {
  sessions: number;
  bytesEach: number;
  cwd: string;
  /** Also page every retained byte back and count the spill files (rss-32-spilled). */
  verifySpill?: boolean;
}

/** What the spilled case checked after the flood (rss-32-spilled). */
export interface SpillReport {
  /** Retained bytes paged back and compared, all sessions. */
  pagedBytes: number;
  /** Bytes that differed from what `yes` wrote, or were missing. */
  mismatches: number;
  memoryBytes: number;
  diskBytes: number;
  /** This process's open spill files after the flood, and after dispose(). */
  openFilesBefore: number;
  openFilesAfter: number;
  /** Names left in the spill dir after dispose() (the files are unlinked once open). */
  namesLeft: number;
}

export interface RssReport {
  layer: string;
  baseBytes: number;
  peakBytes: number;
  /** Bytes the logs still held at the end, where the layer exposes it. */
  retainedBytes: number | null;
  spill?: SpillReport;
  notBuilt?: string;
}

interface SpilledView {
  output(options: {
    cursor: number;
  }): Promise<{ data: string; cursor: number; eof: boolean; droppedBytes: number }>;
  metadata(): { retainedBytes: number; memoryBytes?: number; diskBytes?: number; droppedBytes: number };
}

const SPILL_DIR = join(tmpdir(), 'procmux-output');

function openSpillFiles(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(SPILL_DIR)) count += 1;
    } catch {
      // The readdir's own descriptor.
    }
  }
  return count;
}

function namesLeft(): number {
  try {
    return readdirSync(SPILL_DIR).filter((name) => name.includes(`-${process.pid}-`)).length;
  } catch {
    return 0;
  }
}

// Pages a session's whole retained history and compares it with what `yes` wrote there.
async function verifyHistory(session: SpilledView): Promise<{ paged: number; mismatches: number }> {
  const line = `${FLOOD_LINE}\n`;
  const pattern = line.repeat(Math.ceil((1024 * 1024 + line.length) / line.length) + 1);
  const meta = session.metadata();
  let cursor = meta.droppedBytes;
  let paged = 0;
  let mismatches = 0;
  for (;;) {
    const page = await session.output({ cursor });
    const at = cursor % line.length;
    if (page.data !== pattern.slice(at, at + page.data.length)) mismatches += page.data.length;
    paged += page.data.length;
    cursor = page.cursor;
    if (page.eof) break;
  }
  mismatches += Math.abs(meta.retainedBytes - paged);
  return { paged, mismatches };
}

const maxRss = () => process.resourceUsage().maxRSS * 1024;
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
const WAIT_MS = 60_000;

/** The host API: createProcessSessions, default caps but for the session count. */
async function viaSessions(spec: RssSpec): Promise<RssReport> {
  const { createProcessSessions } = await loadSessions();
  const sessions = createProcessSessions({ cwd: spec.cwd, limits: { maxSessions: spec.sessions } });
  try {
    collect();
    const baseBytes = maxRss();
    const command = floodCommand(spec.bytesEach);
    const started = await Promise.all(
      Array.from({ length: spec.sessions }, () =>
        sessions.start({
          shell: true,
          command,
          pty: false,
          stdin: 'closed',
          env: { [BENCH_MARKER_ENV]: runMarker() },
        }),
      ),
    );
    await Promise.all(
      started.map(async (session) => {
        let outcome = await session.wait({ timeoutMs: WAIT_MS });
        while (outcome.state === 'running' || outcome.state === 'starting') {
          outcome = await session.wait({ timeoutMs: WAIT_MS });
        }
        if (outcome.exitCode !== 0)
          throw new Error(`a flood session ended ${outcome.state} ${outcome.exitCode}`);
      }),
    );
    const peakBytes = maxRss();
    if (!spec.verifySpill) return { layer: 'sessions', baseBytes, peakBytes, retainedBytes: null };
    const views = started as unknown as SpilledView[];
    let pagedBytes = 0;
    let mismatches = 0;
    for (const view of views) {
      const result = await verifyHistory(view);
      pagedBytes += result.paged;
      mismatches += result.mismatches;
    }
    const metas = views.map((view) => view.metadata());
    const openFilesBefore = openSpillFiles();
    await sessions.dispose();
    return {
      layer: 'sessions',
      baseBytes,
      peakBytes,
      retainedBytes: metas.reduce((sum, m) => sum + m.retainedBytes, 0),
      spill: {
        pagedBytes,
        mismatches,
        memoryBytes: metas.reduce((sum, m) => sum + (m.memoryBytes ?? 0), 0),
        diskBytes: metas.reduce((sum, m) => sum + (m.diskBytes ?? 0), 0),
        openFilesBefore,
        openFilesAfter: openSpillFiles(),
        namesLeft: namesLeft(),
      },
    };
  } finally {
    await sessions.dispose();
  }
}

/** The layers beneath: supervisor runs feeding one default OutputLog each, never drained. */
async function viaRegistry(spec: RssSpec): Promise<RssReport> {
  const { OutputLog } = await loadRegistry();
  const { ProcessSupervisor } = await loadSupervisor();
  const supervisor = new ProcessSupervisor({ logger: quietLogger() });
  try {
    collect();
    const baseBytes = maxRss();
    const command = floodCommand(spec.bytesEach);
    const logs = Array.from({ length: spec.sessions }, () => new OutputLog({}));
    const runs = await Promise.all(
      logs.map((log) =>
        supervisor.spawn({
          command,
          mode: 'pipe',
          stdin: 'closed',
          env: benchEnv(),
          onStdout: (chunk) => log.append('stdout', chunk),
          onStderr: (chunk) => log.append('stderr', chunk),
        }),
      ),
    );
    const exits = await Promise.all(runs.map((run) => run.wait()));
    const failed = exits.find((exit) => exit.exitCode !== 0);
    if (failed) throw new Error(`a flood run ended ${failed.reason} ${failed.exitCode}`);
    const retained = logs.reduce(
      (sum, log) => sum + ((log as { retainedBytes?: number }).retainedBytes ?? 0),
      0,
    );
    return { layer: 'supervisor + OutputLog', baseBytes, peakBytes: maxRss(), retainedBytes: retained };
  } finally {
    await supervisor.cancelAll();
  }
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as RssSpec;
  let report: RssReport;
  try {
    report = await viaSessions(spec);
  } catch (error) {
    if (!isNotBuilt(error)) throw error;
    try {
      report = await viaRegistry(spec);
    } catch (inner) {
      if (!isNotBuilt(inner)) throw inner;
      report = {
        layer: 'none',
        baseBytes: 0,
        peakBytes: 0,
        retainedBytes: null,
        notBuilt: inner instanceof Error ? inner.message : String(inner),
      };
    }
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `rss-child: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
