// What the session's files say about its end, read in the order the hook and the log writer
// write them, so a pane that ended between two reads is never taken for a lost one.
import { parseExitFile, type SessionFiles } from './layout.js';

export type PaneEnd =
  /** The log writer could not append: the log is incomplete from here on. */
  | { kind: 'failed' }
  /** Whole once `eof`: before the end mark, the writer may yet fail on the last bytes. */
  | { kind: 'exited'; status: { exitCode: number | null; signal: number | null }; eof: boolean }
  /** The hook ran before tmux reaped the process (no status yet): ask tmux for it. */
  | { kind: 'unreaped'; eof: boolean }
  /** The log writer ended and no status was written: the session or its server went away. */
  | { kind: 'lost' }
  | { kind: 'running' };

export interface EndFiles {
  exists(path: string): boolean;
  /** The file's text, or undefined when it is not there. */
  read(path: string): string | undefined;
}

export function readPaneEnd(files: Pick<SessionFiles, 'exit' | 'eof' | 'failed'>, fs: EndFiles): PaneEnd {
  // The end mark first: the hook writes the exit file whole before it ends the tmux session,
  // and that end is what closes the writer's pipe and makes the mark. Read after the mark, a
  // status the hook wrote is there; read before it, it may be written between the two reads
  // (seen once in 100 seq runs under load: a finished run reported as vanished).
  const eof = fs.exists(files.eof);
  // The writer leaves the failed mark before its end mark (so after the mark it is there if
  // it ever will be): an exit status with an incomplete log is no clean end either.
  if (fs.exists(files.failed)) return { kind: 'failed' };
  const text = fs.read(files.exit);
  const status = text === undefined ? undefined : parseExitFile(text);
  if (status) return { kind: 'exited', status, eof };
  if (text === ':\n') return { kind: 'unreaped', eof };
  return eof ? { kind: 'lost' } : { kind: 'running' };
}
