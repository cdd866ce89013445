import {
  isProcmuxError,
  type ProcessRecord,
  type ProcessRecoveryBackend,
  ProcmuxError,
  type RecoveredProcessHandle,
} from '@procmux/core-types';

/** Where a re-attached process's output goes once a session exists for it. */
export interface OutputSink {
  stdout(data: string): void;
  stderr(data: string): void;
}

/**
 * Asks the recovery backend to re-attach `record`'s process within `timeoutMs`. Resolves to
 * the handle, or rejects: ERR_RECOVERY_TIMEOUT on overrun (a handle that arrives later is
 * released, not killed: the process predates this replica), ERR_RECOVERY_UNKNOWN when the
 * backend finds nothing behind the ref or throws (generic message; its text stays in `cause`),
 * ERR_RECOVERY_UNTRUSTED when what it returns is not a process handle, ERR_RECOVERY_UNREACHABLE
 * when the backend threw that (it could not look the process up now).
 */
export async function attachWithin(
  backend: ProcessRecoveryBackend,
  record: ProcessRecord & { backendRef: string },
  timeoutMs: number,
  sink: OutputSink,
): Promise<RecoveredProcessHandle> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const attached = Promise.resolve().then(() =>
    backend.attach({
      ref: record.backendRef,
      sessionId: record.id,
      fingerprint: record.fingerprint,
      stdioMode: record.stdioMode,
      onStdout: (data) => sink.stdout(data),
      onStderr: (data) => sink.stderr(data),
    }),
  );
  attached.then(
    (late) => {
      if (timedOut && isHandle(late)) void Promise.resolve(late.release?.()).catch(() => {});
    },
    () => {},
  );
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(
        new ProcmuxError(
          'ERR_RECOVERY_TIMEOUT',
          `the recovery backend did not attach session ${record.id} within ${timeoutMs} ms`,
          { details: { sessionId: record.id, timeoutMs } },
        ),
      );
    }, timeoutMs);
  });
  try {
    const handle = await Promise.race([
      attached.catch((cause: unknown) => {
        // Its host did not answer: nothing is known of the process, and a later try may reach it.
        if (isProcmuxError(cause, 'ERR_RECOVERY_UNREACHABLE')) {
          throw new ProcmuxError(
            'ERR_RECOVERY_UNREACHABLE',
            `the recovery backend could not look up session ${record.id} now: ${cause.message}`,
            { cause, details: { sessionId: record.id } },
          );
        }
        throw new ProcmuxError(
          'ERR_RECOVERY_UNKNOWN',
          `the recovery backend failed to attach session ${record.id}`,
          {
            cause,
            details: { sessionId: record.id },
          },
        );
      }),
      timeout,
    ]);
    if (handle === null || handle === undefined) {
      throw new ProcmuxError(
        'ERR_RECOVERY_UNKNOWN',
        `the recovery backend found no process for session ${record.id}`,
        { details: { sessionId: record.id } },
      );
    }
    if (!isHandle(handle)) {
      throw new ProcmuxError(
        'ERR_RECOVERY_UNTRUSTED',
        `the recovery backend returned something that is not a process handle for session ${record.id}`,
        { details: { sessionId: record.id } },
      );
    }
    return handle;
  } finally {
    clearTimeout(timer);
  }
}

function isHandle(value: unknown): value is RecoveredProcessHandle {
  if (typeof value !== 'object' || value === null) return false;
  const handle = value as Record<string, unknown>;
  return ['write', 'signal', 'kill', 'wait'].every((name) => typeof handle[name] === 'function');
}
