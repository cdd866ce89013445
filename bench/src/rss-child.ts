// Runs in its own Node process for the RSS case, so that its peak resident set is the cost of
// the sessions alone: loads procmux, measures a base, floods N pipe sessions with default
// caps, and prints one JSON line with the base and the peak. Started by cases/rss.ts.
import { isNotBuilt } from './load.js';
import { BENCH_MARKER_ENV, benchEnv, runMarker } from './processes.js';
import { loadRegistry, loadSessions, loadSupervisor, quietLogger } from './procmux-api.js';
import { floodCommand } from './workload.js';

export interface RssSpec {
  sessions: number;
  bytesEach: number;
  cwd: string;
}

export interface RssReport {
  layer: string;
  baseBytes: number;
  peakBytes: number;
  /** Bytes the logs still held at the end, where the layer exposes it. */
  retainedBytes: number | null;
  notBuilt?: string;
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
    return { layer: 'sessions', baseBytes, peakBytes: maxRss(), retainedBytes: null };
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
