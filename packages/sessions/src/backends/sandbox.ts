import type { SignalName } from '@procmux/core-types';
import type { BackendExit } from './backend-adapter.js';

export interface SandboxStartRequest {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** True when `command` is a shell command line (args appended as given), as for native sessions. */
  shell?: boolean;
  onStdout(data: string): void;
  onStderr(data: string): void;
}

/** A long-running process inside a host's sandbox. */
export interface SandboxProcessHandle {
  pid?: number;
  ref?: string;
  /** The shell that ran a command string (`bash`, `sh`, ...); undefined when the sandbox does not say. */
  shell?: string | null;
  /** What holds the process's tree where the sandbox runs it (as PtyBackendHandle.containment). */
  containment?: 'cgroup' | 'pid-namespace' | 'marker';
  write(data: string): void | Promise<void>;
  closeStdin?(): void | Promise<void>;
  signal(name: SignalName): void | Promise<void>;
  kill(): void | Promise<void>;
  release?(): void | Promise<void>;
  /** Resolves on exit, after the last onStdout/onStderr call; rejects when the sandbox lost it. */
  wait(): Promise<BackendExit>;
}

/**
 * Duck-typed sandbox. With `startProcess`, every session runs through it (no native
 * fallback). `status()` reporting anything but 'running' (or throwing) turns every live
 * session `unknown` and makes later starts fail closed.
 */
export interface ProcessSandboxBackend {
  startProcess?(request: SandboxStartRequest): SandboxProcessHandle | Promise<SandboxProcessHandle>;
  status?(): string | { state: string } | Promise<string | { state: string }>;
  /**
   * For a sandbox whose file system is not this host's (a remote machine): resolves the
   * workspace (`requested` undefined) and a session's cwd inside it, instead of this host's
   * realpath. Must refuse a path outside the workspace with ERR_PROCESS_POLICY.
   */
  resolveCwd?(workspace: string, requested?: string): string;
}

/** True when the sandbox reports itself running; a throw counts as not running. */
export async function sandboxRunning(sandbox: ProcessSandboxBackend): Promise<boolean> {
  if (typeof sandbox.status !== 'function') return true;
  try {
    const status = await sandbox.status();
    const state = typeof status === 'string' ? status : status?.state;
    return state === 'running';
  } catch {
    return false;
  }
}
