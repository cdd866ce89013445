import type { ManagedRun, ProcessRecord, RecoveredProcessHandle } from '@procmux/core-types';
import { TerminalScreen } from '@procmux/screen';
import type { ProcessSupervisor } from '@procmux/supervisor';
import { sessionOutputLog } from '@procmux/transcript';
import { BackendAdapter } from '../backends/backend-adapter.js';
import type { ReattachedSession } from '../durable/reattach.js';
import type { ReplaySink } from '../durable/replay.js';
import type { SessionContext } from '../session/context.js';
import { LiveSession } from '../session/live-session.js';
import { resolveTerminal } from '../session/terminal.js';
import { adoptRecordedSandbox, closeWithRun, RecentOutput, releaseWithSandbox } from './os-sandbox.js';

/**
 * A live session for a re-attached process (durable/recover.ts gets this as its
 * `reattach`): the handle is adapted to ProcessAdapter and run through the supervisor like any
 * host backend, so input, signals, kill, wait, resize and events behave as for a session
 * started here. A PTY session gets a screen of the recorded size, fed from what the backend
 * streams. A backend that replays the whole history (`replayFrom: 0`) rebuilds the log and the
 * screen from it, and polls return only what the record says no caller was given yet;
 * otherwise output history from before the restart is not there.
 */
export async function reattachSession(
  record: ProcessRecord,
  handle: RecoveredProcessHandle,
  deps: {
    supervisor: ProcessSupervisor;
    context: SessionContext;
    sessions: Map<string, LiveSession>;
    canResize: boolean;
    replay: ReplaySink;
  },
): Promise<ReattachedSession> {
  const { limits } = deps.context;
  const replayFrom = replayStart(handle);
  const floor = replayFrom === undefined ? 0 : Math.max(0, (record.deliveredBytes ?? 0) - replayFrom);
  // null: the session had no screen; absent (an older record): a PTY session had one by default.
  const terminal =
    record.stdioMode !== 'pty' || record.terminal === null
      ? undefined
      : (record.terminal ?? pick(resolveTerminal(undefined, limits)));
  const screen = terminal ? new TerminalScreen({ cols: terminal.columns, rows: terminal.rows }) : undefined;
  const session = new LiveSession(
    {
      id: record.id,
      owner: record.owner ?? undefined,
      command: record.command,
      args: record.args,
      shell: record.shell ?? record.args.length === 0,
      cwd: record.cwd,
      fingerprint: record.fingerprint,
      pty: record.pty,
      stdin: 'open',
      startedAt: record.startedAt,
      expiresAt: record.expiresAt,
      releaseOnCancel: record.releaseOnCancel,
      log: sessionOutputLog(deps.context),
      screen,
      terminal,
      backend: record.backend,
      outputBase: replayFrom,
      deliveredBytes: record.deliveredBytes ?? 0,
      replaying: floor > 0,
    },
    deps.context,
  );
  // A sandboxed process: refusals are told from here on, signals aim at the program inside.
  const recent = new RecentOutput();
  const box = await adoptRecordedSandbox(session, record, recent);
  // Replayed output a caller was already given was scanned (and its refusals told) by the host
  // that gave it: only what comes after is scanned here. All of it is recent output, though:
  // what was typed before the crash says what a refusal after the floor was.
  let unscanned = floor;
  const scan = (stream: 'stdout' | 'stderr', chunk: string) => {
    if (!box) return;
    recent.push(chunk);
    if (unscanned > 0) {
      const bytes = Buffer.from(chunk);
      if (bytes.length <= unscanned) {
        unscanned -= bytes.length;
        return;
      }
      chunk = bytes.subarray(unscanned).toString();
      unscanned = 0;
    }
    box.scan(stream, chunk);
  };
  if (box) releaseWithSandbox(handle, box);
  const adapter = new BackendAdapter(handle, record.stdioMode, deps.canResize);
  let run: ManagedRun;
  try {
    // The screen is fed here, not given to the supervisor: its replies (device attributes and
    // the like) would answer again, from the replayed history, queries the backend's own
    // terminal (tmux) answered when they were printed.
    const feed = (chunk: string) => {
      try {
        screen?.feed(chunk);
      } catch {
        // Disposed once the session ended and kept its final screen.
      }
    };
    run = await deps.supervisor.spawn({
      stdin: 'open',
      maxCaptureBytes: 0,
      onStdout: (chunk) => {
        feed(chunk);
        session.onOutput('stdout', chunk);
        scan('stdout', chunk);
      },
      onStderr: (chunk) => {
        session.onOutput('stderr', chunk);
        scan('stderr', chunk);
      },
      adapterFactory: async () => adapter,
    });
  } catch (error) {
    screen?.dispose();
    await box?.release();
    throw error;
  }
  if (box) closeWithRun(run, box);
  deps.replay.connect(adapter, floor, () => session.skipDelivered());
  // A process that ends before the replay reached the floor: the rest was all delivered.
  void run.wait().then(
    () => deps.replay.end(),
    () => deps.replay.end(),
  );
  return {
    session,
    start() {
      deps.sessions.set(record.id, session);
      const metadata = backendMetadata(handle, limits.maxPtyBackendMetadataBytes);
      // The backend says what really holds the re-attached tree (a tmux pane's own cgroup).
      const held = handle.containment;
      session.attach(
        run,
        adapter,
        metadata,
        typeof metadata?.shell === 'string' ? metadata.shell : null,
        held ? { containment: held, cgroup: undefined, limits: {} } : undefined,
      );
    },
  };
}

/** The handle's replayFrom when it is a byte offset; undefined (stream starts now) otherwise. */
function replayStart(handle: RecoveredProcessHandle): number | undefined {
  const from = handle.replayFrom;
  return typeof from === 'number' && Number.isSafeInteger(from) && from >= 0 ? from : undefined;
}

function pick(t: { columns: number; rows: number }): { columns: number; rows: number } {
  return { columns: t.columns, rows: t.rows };
}

/** The handle's metadata when it is a small plain object (as a host PTY start allows). */
function backendMetadata(
  handle: RecoveredProcessHandle,
  maxBytes: number,
): Record<string, unknown> | undefined {
  const metadata = handle.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  try {
    return Buffer.byteLength(JSON.stringify(metadata)) <= maxBytes ? metadata : undefined;
  } catch {
    return undefined;
  }
}
