// exec `persist: true`: a session or daemon meant to outlive this server, started on the
// host's persistent backend (procmux mcp: a private tmux server) with lifetime 'detached'.
import { isProcmuxError, ProcmuxError } from '@procmux/core-types';
import type { ProcessStartRequest } from '@procmux/sessions';

/** What a persisted start adds to the request: always a terminal, never tied to this host. */
export function persistedStart(): Pick<ProcessStartRequest, 'pty' | 'lifetime'> {
  return { pty: true, lifetime: 'detached' };
}

/** Refuses `persist: true` up front when the host said it has no persistent backend. */
export function checkPersistAvailable(unavailable: string | undefined): void {
  if (unavailable !== undefined) {
    throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', `persist: true is not available here: ${unavailable}`);
  }
}

/** A lifetime refusal from the registry, told in the tool's words. */
export function persistError(error: unknown): unknown {
  if (
    isProcmuxError(error, 'ERR_INVALID_OPTION') &&
    (error.details as { option?: unknown })?.option === 'lifetime'
  ) {
    return new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      'persist: true needs a persistent terminal backend, and this host has none (procmux mcp uses tmux 3.3 or newer)',
      { cause: error },
    );
  }
  return error;
}

/** The note a persisted start's header carries, with how a person attaches when the backend says. */
export function persistNote(mode: 'session' | 'daemon', backendMetadata: unknown): string {
  const attach = (backendMetadata as { tmux?: { attach?: unknown } } | undefined)?.tmux?.attach;
  const how = typeof attach === 'string' ? ` Watch or take over: ${attach}` : '';
  return mode === 'daemon'
    ? `Persisted: it outlives this server, and runs in a terminal (tmux), not on pipes.${how}`
    : `Persisted: it outlives this server.${how}`;
}
