import { invalidOption, oneOf } from '@procmux/core-types';
import { hostPtyBackend, type PtyBackendChoice } from './pty-backend.js';

/**
 * 'host' (default): the session ends with its host on every path — dispose(), exit, crash,
 * SIGTERM, SIGKILL. 'detached': it survives its host, which only a persistent backend can
 * offer (one that declares `persistent: true`; a later host recovers the session there).
 */
export type SessionLifetime = 'host' | 'detached';

/**
 * Checks a request's `lifetime` against where it would run. 'detached' needs a PTY session on
 * a host PTY backend that declares `persistent: true`: the native pipes and PTYs live in this
 * process's care and die with it, by contract. Throws ERR_INVALID_OPTION saying so.
 */
export function resolveLifetime(
  lifetime: unknown,
  pty: boolean,
  ptyBackend: PtyBackendChoice,
  sandboxed: boolean,
): SessionLifetime {
  if (oneOf<SessionLifetime>('lifetime', lifetime, ['host', 'detached'], { default: 'host' }) === 'host')
    return 'host';
  const persistent = pty && !sandboxed && hostPtyBackend(ptyBackend)?.persistent === true;
  if (persistent) return 'detached';
  throw invalidOption(
    'lifetime',
    "'host' here: 'detached' needs a PTY session on a persistent backend (a ptyBackend declaring " +
      'persistent: true); native pipes and PTYs end with their host',
    { value: lifetime, values: ['host'] },
  );
}
