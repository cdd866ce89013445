import type { ToolSession } from './types.js';

/** Longest command shown in a header or a list row. */
const MAX_COMMAND_CHARS = 160;

/** The command as shown to a model: one line, cut when very long. */
export function shownCommand(command: string): string {
  const line = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length <= MAX_COMMAND_CHARS ? line : `${line.slice(0, MAX_COMMAND_CHARS - 3)}...`;
}

/** "pid 123, PTY 120x40 with a screen" style description of how a session is wired. */
export function wiring(session: ToolSession): string {
  const pid = session.pid === undefined ? 'no pid' : `pid ${session.pid}`;
  if (session.stdioMode === 'pty') return `${pid}, terminal`;
  return `${pid}, pipes`;
}

/** A duration in words a model reads at a glance: 850 ms, 12.3 s, 4 min 5 s, 2 h 3 min. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.floor((ms % 60_000) / 1000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
