import type { ProcessSession, ProcessSessions } from '@procmux/sessions';
import type { SecretRequest, SecretTicket } from './secret-page.js';

/** The parts of a registry the view reads: what createProcessSessions returns satisfies it. */
export type ViewSessions = Pick<ProcessSessions, 'list' | 'get' | 'watch'>;

/** The parts of a session handle the view uses. */
export type ViewSession = Pick<
  ProcessSession,
  | 'id'
  | 'state'
  | 'live'
  | 'stdioMode'
  | 'metadata'
  | 'terminalSize'
  | 'humanControl'
  | 'watch'
  | 'watchInput'
  | 'snapshot'
  | 'takeControl'
>;

export interface ViewOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /**
   * Address to bind: 127.0.0.1 (the default). Anything else exposes the sessions to the
   * network (the token still guards them) and needs `allowNonLoopback: true`.
   */
  host?: string;
  /** Required to bind an address other than 127.0.0.1 / ::1 / localhost. */
  allowNonLoopback?: boolean;
  /** The secret in the URL; default 32 random bytes, base64url. At least 16 characters. */
  token?: string;
  /** Diagnostics (never keystrokes, never the token). Default: nothing. */
  log?: (line: string) => void;
}

export interface ViewServer {
  /** The page, with the token: `http://127.0.0.1:PORT/?token=…`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly token: string;
  /**
   * Offers a one-time page (its own ticket in the URL, not the token) where a person answers
   * one hidden prompt; what they type goes to `request.deliver` and nowhere else.
   */
  askSecret(request: SecretRequest): SecretTicket;
  /** Stops serving, closes every page's connection and releases any control a person held. */
  close(): Promise<void>;
}

/** One row of the session list the page shows. */
export interface ViewSessionRow {
  id: string;
  command: string;
  state: string;
  pty: boolean;
  startedAt: number;
  endedAt: number | null;
  exitCode: number | null;
  /** What the session waits for, when the host knows (`metadata().input`); else null. */
  input: { prompt?: string; echo?: boolean } | null;
  /** Who holds the keyboard instead of the model, or null. */
  control: string | null;
}
