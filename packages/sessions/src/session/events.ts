import type { ProcessEvent, ProcessEventType } from '@procmux/core-types';
import type { SessionCore } from './core.js';

/**
 * The one builder of a session's events (process_started, every end, waiting for input,
 * control changes): the session's facts as they are now, `at` now unless given, and what the
 * event adds. Env and output never enter an event.
 */
export function sessionEvent(
  s: SessionCore,
  type: ProcessEventType,
  extra: Partial<Omit<ProcessEvent, 'type' | 'sessionId'>> = {},
): ProcessEvent {
  return {
    type,
    sessionId: s.id,
    owner: s.owner,
    fingerprint: s.fingerprint,
    state: s.state,
    at: Date.now(),
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    pid: s.pid,
    stdioMode: s.stdioMode,
    exitCode: s.exitCode,
    signal: s.signal,
    ...extra,
  };
}
