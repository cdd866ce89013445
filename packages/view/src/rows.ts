import type { ViewSession, ViewSessionRow } from './types.js';

/** A session as the page's list shows it. */
export function sessionRow(session: ViewSession): ViewSessionRow {
  const meta = session.metadata();
  // `input` is present where the host can tell a session waits for input (a newer sessions package).
  const input = (meta as { input?: { prompt?: unknown; echo?: unknown } | null }).input ?? null;
  return {
    id: meta.id,
    command: [meta.command, ...meta.args].join(' '),
    state: meta.state,
    pty: meta.stdioMode === 'pty',
    startedAt: meta.startedAt,
    endedAt: meta.endedAt,
    exitCode: meta.exitCode,
    input:
      input === null
        ? null
        : {
            ...(typeof input.prompt === 'string' ? { prompt: input.prompt } : {}),
            ...(typeof input.echo === 'boolean' ? { echo: input.echo } : {}),
          },
    control: session.humanControl?.holder ?? null,
  };
}
