import type { ProcessRecord, RecoveredProcessHandle } from '@procmux/core-types';
import { OutputLog } from '@procmux/registry';
import type { ProcessSupervisor } from '@procmux/supervisor';
import { BackendAdapter } from './backend-adapter.js';
import type { SessionContext } from './context.js';
import type { OutputTarget, ReattachedSession } from './durable/reattach.js';
import { LiveSession } from './session/live-session.js';

/**
 * A live session for a re-attached process (durable/recover.ts gets this as its
 * `reattach`): the handle is adapted to ProcessAdapter and run through the supervisor like any
 * host backend, so input, signals, kill, wait, resize and events behave as for a session
 * started here. Output history from before the restart is not there; what the backend streams
 * from now on is.
 */
export async function reattachSession(
  record: ProcessRecord,
  handle: RecoveredProcessHandle,
  deps: {
    supervisor: ProcessSupervisor;
    context: SessionContext;
    sessions: Map<string, LiveSession>;
    canResize: boolean;
    connect(target: OutputTarget): void;
  },
): Promise<ReattachedSession> {
  const { limits } = deps.context;
  const session = new LiveSession(
    {
      id: record.id,
      owner: record.owner ?? undefined,
      command: record.command,
      args: record.args,
      cwd: record.cwd,
      fingerprint: record.fingerprint,
      pty: record.pty,
      stdin: 'open',
      startedAt: record.startedAt,
      expiresAt: record.expiresAt,
      releaseOnCancel: record.releaseOnCancel,
      log: new OutputLog({
        maxRetainedBytes: limits.maxOutputBytes,
        maxUndrainedBytes: limits.maxUndrainedBytes,
        maxChunkBytes: limits.maxOutputChunkBytes,
      }),
      screen: undefined,
      backend: record.backend,
    },
    deps.context,
  );
  const adapter = new BackendAdapter(handle, record.stdioMode, deps.canResize);
  deps.connect(adapter);
  const run = await deps.supervisor.spawn({
    stdin: 'open',
    maxCaptureBytes: 0,
    onStdout: (chunk) => session.onOutput('stdout', chunk),
    onStderr: (chunk) => session.onOutput('stderr', chunk),
    adapterFactory: async () => adapter,
  });
  return {
    session,
    start() {
      deps.sessions.set(record.id, session);
      session.attach(run, adapter);
    },
  };
}
