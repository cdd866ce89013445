import { isProcmuxError, ProcmuxError } from '@procmux/core-types';
import type { BackendAdapter } from './backend-adapter.js';
import type { PtyBackendHandle } from './pty-backend.js';
import type { SandboxProcessHandle } from './sandbox.js';

/**
 * Starts a host backend within `timeoutMs` (maxPtyAttachTimeoutMs). A throw is ERR_PROCESS_PTY_BACKEND
 * with a generic message (the backend's text may hold secrets; it stays in `cause`); an
 * overrun is ERR_PROCESS_PTY_LIMIT, and a handle that arrives late is killed.
 */
export async function attachBounded<H extends PtyBackendHandle | SandboxProcessHandle>(
  timeoutMs: number,
  startHandle: () => H | Promise<H>,
  wrap: (handle: H) => BackendAdapter,
): Promise<BackendAdapter> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const started = Promise.resolve().then(startHandle);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(
        new ProcmuxError(
          'ERR_PROCESS_PTY_LIMIT',
          `the process backend did not attach within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
  });
  started.then(
    (late) => {
      if (timedOut) void Promise.resolve(late.kill()).catch(() => {});
    },
    () => {},
  );
  try {
    const handle = await Promise.race([
      started.catch((cause: unknown) => {
        // The backend's own words when it chose them (a ProcmuxError) say what to fix; a raw
        // error's text stays out (it may carry a URL with a token).
        const why = isProcmuxError(cause) ? `: ${cause.message}` : '';
        throw new ProcmuxError(
          'ERR_PROCESS_PTY_BACKEND',
          `the process backend failed to start the session${why}`,
          {
            cause,
          },
        );
      }),
      timeout,
    ]);
    return wrap(handle);
  } finally {
    clearTimeout(timer);
  }
}
