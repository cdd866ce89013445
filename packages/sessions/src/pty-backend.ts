import type { SignalName } from '@procmux/core-types';
import type { BackendExit } from './backend-adapter.js';

/** What a host PTY backend is asked to start. */
export interface PtyStartRequest {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  columns: number;
  rows: number;
  term: string;
  /**
   * 'host': end the process when this host goes (the backend's own watchdog, a lease...).
   * 'detached': keep it for a later host to recover. Only asked of a `persistent` backend.
   */
  lifetime: 'host' | 'detached';
  /** Terminal output; the backend stops calling it once the process has ended. */
  onData(data: string): void;
}

/** The handle a host PTY backend returns. */
export interface PtyBackendHandle {
  pid?: number;
  /** Opaque, non-secret reference a recovery backend can re-attach to. */
  ref?: string;
  /** Small, non-secret facts about the terminal (bounded by maxPtyBackendMetadataBytes). */
  metadata?: Record<string, unknown>;
  write(data: string): void | Promise<void>;
  signal(name: SignalName): void | Promise<void>;
  kill(): void | Promise<void>;
  release(): void | Promise<void>;
  /** Resolves on exit, after the last onData call; rejects when the backend lost the process. */
  wait(): Promise<BackendExit>;
  resize?(columns: number, rows: number): void | Promise<void>;
}

/**
 * A host's interactive-terminal capability. `pty: true` sessions start only through it.
 * `capabilities.resize` must be declared for sessions to offer resize (never duck-typed).
 */
export interface ProcessPtyBackend {
  readonly capabilities?: { readonly resize?: boolean };
  /**
   * True for a backend whose processes can outlive this host (a private tmux server, a remote
   * machine): the only kind that accepts `lifetime: 'detached'` sessions.
   */
  readonly persistent?: boolean;
  startPty(request: PtyStartRequest): PtyBackendHandle | Promise<PtyBackendHandle>;
}

const NATIVE = Symbol.for('procmux.nativePtyBackend');

/** The native backend: our own PTY packages through the supervisor (PTY fallback, DSR, drain). */
export interface NativePtyBackend extends ProcessPtyBackend {
  readonly [NATIVE]: true;
  readonly capabilities: { readonly resize: true };
}

/**
 * The default PTY backend, built on @procmux/pty-posix / @procmux/pty-windows-conpty as the
 * supervisor selects them. Sessions run it through the supervisor's own PTY path; calling
 * startPty directly is not supported (use the supervisor).
 */
export function nativePtyBackend(): NativePtyBackend {
  return {
    [NATIVE]: true,
    capabilities: { resize: true },
    startPty(): never {
      throw new Error('nativePtyBackend runs through ProcessSupervisor; it has no startPty of its own');
    },
  };
}

export function isNativePtyBackend(backend: unknown): backend is NativePtyBackend {
  return (
    typeof backend === 'object' && backend !== null && (backend as { [NATIVE]?: unknown })[NATIVE] === true
  );
}
