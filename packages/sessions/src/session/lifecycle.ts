// A session's life: attach to its run, fall back to pipes, finish, settle (state, event,
// watchers, waiters), persist, and give up the terminal emulator once ended.

import { stripAnsi } from '@procmux/ansi';
import {
  isProcmuxError,
  isTerminalState,
  type ManagedRun,
  type ProcessEventType,
  type RunExit,
  type SessionState,
  type SignalName,
} from '@procmux/core-types';
import { monoNow } from '@procmux/registry';
import type { BackendAdapter } from '../backends/backend-adapter.js';
import type { Contained } from '../backends/containment.js';
import type { RecordSource } from '../durable/record.js';
import type { SessionMetadata } from '../types.js';
import type { SessionCore } from './core.js';
import { sessionEvent } from './events.js';
import { askInput } from './input-state.js';

type Stream = 'stdout' | 'stderr';

/**
 * Output from the supervisor (already free of answered terminal queries), with its UTF-8
 * bytes when the adapter had them: the log copies those instead of encoding the text.
 */
export function onOutput(s: SessionCore, stream: Stream, chunk: string, bytes?: Uint8Array): void {
  if (s.state === 'released') return;
  s.transcript.append(stream, chunk, bytes);
  if (s.staleChars[stream] > 0 && chunk.includes('\n')) s.staleChars[stream] = 0;
  if (s.watchers.size > 0)
    s.watchers.emit({ type: 'output', data: chunk, offset: s.transcript.log.totalBytes });
  s.pending = true;
  s.input.noteOutput();
  // Checked here: a flood calls this per chunk, mostly with no poll waiting.
  if (s.waiters.size > 0) s.waiters.wake();
}

export function attach(
  s: SessionCore,
  run: ManagedRun,
  adapter: BackendAdapter | undefined,
  metadata?: Record<string, unknown>,
  shellName?: string | null,
  contained?: Contained,
): void {
  if (contained) s.contained = contained;
  s.run = run;
  s.adapter = adapter;
  s.backendMetadata = metadata;
  s.shellName = shellName ?? null;
  s.stdioMode = run.stdioMode;
  if (s.pty && run.stdioMode === 'pipe') fallBack(s);
  if (s.state === 'starting') s.state = 'running';
  persist(s, undefined);
  run.wait().then(
    (exit) => {
      finish(s, exit);
      void retireScreen(s);
    },
    () => {
      finish(s, undefined);
      void retireScreen(s);
    },
  );
}

/**
 * A PTY start that ran on pipes: from here it is a pipe session (no screen, poll and log
 * read the streams as written) and metadata says it fell back.
 */
function fallBack(s: SessionCore): void {
  s.fellBack = true;
  s.screen?.dispose();
  s.screen = undefined;
  s.emulated = false;
  s.transcript.plain();
  s.terminal = undefined;
}

/**
 * Takes the final screen (what poll has not returned yet, and the whole render) and
 * disposes the emulator: an ended session keeps text, not a terminal (~270 KiB each).
 */
export function retireScreen(s: SessionCore): Promise<void> {
  const screen = s.screen;
  if (!screen) return Promise.resolve();
  s.retiring ??= (async () => {
    try {
      // One read of the rows for both; a flood's held tail is rendered from its text (screen's retire).
      s.finalScreen = await screen.retire();
    } finally {
      s.screen = undefined;
      screen.dispose();
    }
  })().catch(() => {});
  return s.retiring;
}

function finish(s: SessionCore, exit: RunExit | undefined): void {
  if (isTerminalState(s.state)) return;
  if (exit?.leftovers) s.leftovers = exit.leftovers;
  if (s.adapter?.lost || exit === undefined) {
    settle(s, 'unknown', null, null, lostReason(s.adapter?.lostCause));
  } else if (s.forced) {
    settle(s, s.forced, null, exit.signal ?? 'SIGKILL', s.forced === 'expired' ? 'lifetime' : 'kill');
  } else if (exit.reason === 'exit' && exit.exitCode !== null) {
    settle(s, 'exited', exit.exitCode, null);
  } else {
    settle(s, 'killed', null, exit.signal, exit.reason);
  }
}

export function settle(
  s: SessionCore,
  state: SessionState,
  exitCode: number | null,
  signal: SignalName | null,
  reason?: string,
): void {
  s.state = state;
  s.exitCode = state === 'exited' ? exitCode : null;
  s.signal = signal;
  s.endedAt = Date.now();
  s.endedMono = monoNow();
  s.endReason = reason ?? null;
  s.transcript.end();
  const type = `process_${state === 'exited' ? 'exited' : state}` as ProcessEventType;
  s.ctx.emit(sessionEvent(s, type, { at: s.endedAt, ...(reason ? { reason } : {}) }));
  s.control?.end('the session ended');
  s.input.stop();
  s.watchers.emit({ type: 'state', state });
  s.waiters.wake();
  // wait() and kill() resolve once the record says so too, so a host reads its own writes.
  void persist(s, reason).then(() => s.resolveSettled());
}

/** Hands the current state to the durable journal, if the registry has one. */
export function persist(s: SessionCore, reason: string | undefined): Promise<void> {
  const write = s.ctx.persist;
  if (!write) return s.persisted;
  s.persisted = write(recordSource(s, reason));
  return s.persisted;
}

/** What the durable record of this session is built from, as it is now. */
export function recordSource(s: SessionCore, reason?: string): RecordSource {
  return {
    // Internal: a durable write is not someone asking, so it starts no input checks.
    metadata: metadata(s, false),
    backendRef: s.adapter?.handle.ref,
    releaseOnCancel: s.releaseOnCancel,
    expiresAt: s.expiresAt,
    reason,
    terminal: s.stdioMode === 'pty' && s.emulated ? s.terminal : undefined,
    deliveredBytes: s.delivered.bytes,
    // A later host tells the refusals of a process it recovers, and signals inside, from this.
    sandbox: s.sandbox && {
      write: s.sandbox.policy.write,
      denyRead: s.sandbox.policy.denyRead,
      allowDomains: s.sandbox.policy.allowDomains,
      privateDir: s.sandbox.dir,
    },
  };
}

/** The session's facts; `ask` is a caller asking (it starts waiting-for-input checks). */
export function metadata(s: SessionCore, ask: boolean): SessionMetadata {
  return {
    id: s.id,
    owner: s.owner,
    command: s.command,
    args: [...s.args],
    shell: s.shell,
    cwd: s.cwd,
    fingerprint: s.fingerprint,
    state: s.state,
    pid: s.pid,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    exitCode: s.exitCode,
    signal: s.signal,
    stdioMode: s.stdioMode,
    totalBytes: s.transcript.log.totalBytes,
    retainedBytes: s.transcript.log.retainedBytes,
    droppedBytes: s.transcript.log.firstRetainedOffset,
    truncated: s.transcript.log.truncated,
    memoryBytes: s.transcript.log.memoryBytes,
    diskBytes: s.transcript.log.diskBytes,
    spillError: s.transcript.log.spillError?.message ?? null,
    tail: stripAnsi(s.transcript.log.tail),
    pty: s.pty,
    ptyFellBack: s.fellBack,
    emulated: s.emulated,
    backend: s.backend,
    endReason: s.endReason,
    input: ask ? askInput(s) : s.input.state,
    shellName: s.shellName,
    ...(s.backendMetadata ? { backendMetadata: s.backendMetadata } : {}),
    ...(s.sandbox
      ? {
          sandbox: {
            policy: s.sandbox.policy,
            violations: s.sandbox.violations.map((v) => ({ ...v })),
            violationCount: s.sandbox.violationCount,
          },
        }
      : {}),
    containment: s.contained.containment,
    resourceLimits: { ...s.contained.limits },
    usage: s.contained.cgroup?.usage() ?? null,
    ...(s.leftovers ? { leftovers: s.leftovers.map((p) => ({ ...p })) } : {}),
  };
}

/** The backend's own words when it said why (a ProcmuxError), so the session tells the cause. */
function lostReason(cause: unknown): string {
  const base = 'the process backend lost this session';
  return isProcmuxError(cause) ? `${base}: ${cause.message}` : base;
}
