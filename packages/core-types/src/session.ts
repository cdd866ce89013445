// Session states and the events a host receives.

/** Life of a session. `exitCode` is non-null only in 'exited'; nothing else invents one. */
export type SessionState = 'starting' | 'running' | 'exited' | 'killed' | 'released' | 'expired' | 'unknown';

/** States a session never leaves. */
export const TERMINAL_SESSION_STATES: readonly SessionState[] = [
  'exited',
  'killed',
  'released',
  'expired',
  'unknown',
];

export type ProcessEventType =
  | 'process_started'
  | 'process_exited'
  | 'process_killed'
  | 'process_released'
  | 'process_expired'
  | 'process_unknown'
  /** A person took the keyboard of the session (a view's take-control); the model's input is refused. */
  | 'human_control_started'
  /** The person gave it back (or their view went away). */
  | 'human_control_ended'
  /** The program started waiting for input (a prompt, a password); `input` says how. */
  | 'process_waiting_input'
  /** The session's OS sandbox refused something (a write, a read, a connection, ...); `violation` says what. */
  | 'sandbox_violation';

/**
 * What a host's onEvent sink receives. Carries the command fingerprint (SHA-256 of
 * [command, ...args]), never the environment.
 */
export interface ProcessEvent {
  type: ProcessEventType;
  sessionId: string;
  owner: string | undefined;
  fingerprint: string;
  state: SessionState;
  /** Epoch milliseconds of the event. */
  at: number;
  startedAt: number;
  endedAt: number | null;
  pid: number | undefined;
  stdioMode: 'pty' | 'pipe';
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why, for killed/expired/unknown ('timeout', 'cancelled', 'backend lost', ...). */
  reason?: string;
  /** process_waiting_input only: what the program waits at. */
  input?: {
    since: number;
    echo: boolean;
    prompt: string;
    confidence: 'kernel' | 'heuristic';
    /** On the alternate screen (vim, less): the cursor's row is the program's text; prompt is ''. */
    fullScreen?: true;
  };
  /** sandbox_violation only: what was refused (kind: write, read, network, unix-socket, signal, terminal-injection). */
  violation?: { kind: string; target: string; at: number };
}

export function isTerminalState(state: SessionState): boolean {
  return TERMINAL_SESSION_STATES.includes(state);
}
