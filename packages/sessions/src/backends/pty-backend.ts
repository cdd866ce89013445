import { invalidOption, type SignalName } from '@procmux/core-types';
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
  /**
   * The command string when the session runs one (`file`/`args` are this host's shell
   * wrapping it): a backend on another machine wraps it for the shell found there.
   */
  shellCommand?: string;
  /** Terminal output; the backend stops calling it once the process has ended. */
  onData(data: string): void;
  /**
   * An OS-sandboxed session's private directory on this host (`file`/`args` are then the
   * sandbox's launcher): the backend removes it once the process has ended, whichever host
   * is there to see it. Given only to a backend declaring `capabilities.sandbox`.
   */
  privateDir?: string;
}

/** The handle a host PTY backend returns. */
export interface PtyBackendHandle {
  pid?: number;
  /** Opaque, non-secret reference a recovery backend can re-attach to. */
  ref?: string;
  /** Small, non-secret facts about the terminal (bounded by maxPtyBackendMetadataBytes). */
  metadata?: Record<string, unknown>;
  /** The shell that ran a command string, when the backend chose it (e.g. the remote host's). */
  shell?: string | null;
  /**
   * What holds the process's tree where the backend runs it ('cgroup': a cgroup of its own;
   * 'pid-namespace': a namespace of its own that dies with it); absent: the marker sweep.
   * `metadata().containment` says it.
   */
  containment?: 'cgroup' | 'pid-namespace' | 'marker';
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
  /**
   * `sandbox`: it runs programs on this host and takes `privateDir`, so an OS-sandboxed
   * session (sandboxPolicy / sandbox) may start through it (e.g. @procmux/backend-tmux).
   */
  readonly capabilities?: { readonly resize?: boolean; readonly sandbox?: boolean };
  /**
   * True for a backend whose processes can outlive this host (a private tmux server, a remote
   * machine): the only kind that accepts `lifetime: 'detached'` sessions.
   */
  readonly persistent?: boolean;
  startPty(request: PtyStartRequest): PtyBackendHandle | Promise<PtyBackendHandle>;
}

/**
 * Where a registry's PTY sessions run: `'native'` (the ptyBackend option omitted: our PTY
 * packages through the supervisor, with its fallback, DSR answers and drain), a host backend,
 * or `null` (ptyBackend: null, no PTY sessions).
 */
export type PtyBackendChoice = 'native' | ProcessPtyBackend | null;

/**
 * Resolves the ptyBackend option. A host backend must be usable before any session trusts it:
 * without startPty every PTY start would fail after its record was made (an `unknown` record,
 * not a clear error).
 */
export function choosePtyBackend(option: ProcessPtyBackend | null | undefined): PtyBackendChoice {
  if (option === undefined) return 'native';
  if (option === null) return null;
  if (typeof option !== 'object' || typeof option.startPty !== 'function') {
    throw invalidOption(
      'ptyBackend',
      'an object with a startPty(request) function (or null for no PTY sessions)',
      { value: option },
    );
  }
  for (const name of ['resize', 'sandbox'] as const) {
    const value = option.capabilities?.[name];
    if (value !== undefined && typeof value !== 'boolean') {
      throw invalidOption(`ptyBackend.capabilities.${name}`, 'true or false', { value });
    }
  }
  return option;
}

/** The host backend of a choice, or undefined for the native one and none. */
export function hostPtyBackend(choice: PtyBackendChoice): ProcessPtyBackend | undefined {
  return choice === 'native' || choice === null ? undefined : choice;
}

/**
 * The backend for `lifetime: 'detached'` sessions when the main one is not persistent: a host
 * PTY backend that declares `persistent: true` (e.g. @procmux/backend-tmux), checked up front.
 */
export function choosePersistentPtyBackend(
  option: ProcessPtyBackend | undefined,
): ProcessPtyBackend | undefined {
  if (option === undefined) return undefined;
  const backend = choosePtyBackend(option);
  if (backend === 'native' || backend === null || backend.persistent !== true) {
    throw invalidOption(
      'persistentPtyBackend',
      'a host PTY backend declaring persistent: true (e.g. @procmux/backend-tmux)',
    );
  }
  return backend;
}

/** A detached session goes to the persistent backend when the main one is not persistent. */
export function backendFor(
  lifetime: unknown,
  main: PtyBackendChoice,
  persistent: ProcessPtyBackend | undefined,
): PtyBackendChoice {
  const mainPersistent = main !== 'native' && main !== null && main.persistent === true;
  return lifetime === 'detached' && persistent !== undefined && !mainPersistent ? persistent : main;
}
