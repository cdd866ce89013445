// The bench's view of the procmux APIs it drives: only the members it calls. The contract
// types come from @procmux/core-types; the classes are described here because their packages
// are written in parallel, and loadPackage() checks at run time that each export exists.
import type {
  KillPlatformModule,
  Logger,
  ManagedRun,
  PtyPlatformModule,
  StdinMode,
  StdioMode,
} from '@procmux/core-types';
import { loadPackage } from './load.js';

/** @procmux/transcript's OutputLog: appends tagged chunks; drain() returns what is new. */
export interface OutputLogView {
  append(stream: 'stdout' | 'stderr', chunk: string): void;
  drain(): { stdout: string; stderr: string; droppedBytes: number };
}

export interface RegistryModule {
  OutputLog: new (options?: Record<string, unknown>) => OutputLogView;
}

/** @procmux/screen's TerminalScreen. */
export interface TerminalScreenView {
  feed(chunk: string): void;
  renderNew(): Promise<unknown> | unknown;
  dispose?(): Promise<void>;
}

export interface ScreenModule {
  TerminalScreen: new (options: { cols: number; rows: number; scrollback: number }) => TerminalScreenView;
}

export interface SupervisorSpawnView {
  command: string;
  mode: StdioMode;
  ptyFallback?: 'pipe' | 'fail';
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  stdin?: StdinMode;
  screen?: TerminalScreenView;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** 0 as a session spawns: its OutputLog keeps the history, the run captures none. */
  maxCaptureBytes?: number;
  /** A session's cgroup (SessionCgroupView): joined before the command runs. */
  cgroup?: unknown;
}

/** @procmux/supervisor's SessionCgroup. */
export interface SessionCgroupView {
  readonly procsFiles: readonly string[];
  members(): number[];
  kill(): Promise<{ signalled: number[]; survivors: number[] }>;
  close(): Promise<unknown>;
}

/** @procmux/supervisor's ProcessSupervisor. */
export interface SupervisorView {
  spawn(options: SupervisorSpawnView): Promise<ManagedRun>;
  cancelAll(): unknown;
  /** Stops the watchdog (supervisors built before it have none). */
  dispose?(): Promise<void>;
}

export interface SupervisorModule {
  /** `watchdog: true` ties runs to this process's life, as every sessions registry does. */
  ProcessSupervisor: new (options: {
    logger: Logger;
    watchdog?: boolean;
  }) => SupervisorView;
  /** Linux: the host's own cgroups (undefined where there are none to read). */
  hostCgroupLayout(): unknown;
  SessionCgroup: { create(options: { layout: unknown; id: string }): SessionCgroupView };
}

/** @procmux/sessions: the host API. */
export interface ProcessSessionView {
  readonly id?: string;
  poll(options?: { timeoutMs?: number }): Promise<{ stdout: string; stderr: string; state: string }>;
  input(data: string): Promise<void>;
  wait(options?: { timeoutMs?: number }): Promise<{ exitCode: number | null; state: string }>;
  kill(): Promise<unknown>;
  metadata?(): { pid: number | undefined; totalBytes?: number };
}

export interface ProcessSessionsView {
  start(request: {
    command: string;
    args?: readonly string[];
    shell?: boolean;
    pty?: boolean;
    env?: Record<string, string>;
    stdin?: StdinMode;
  }): Promise<ProcessSessionView>;
  dispose(): Promise<unknown> | unknown;
}

export interface SessionsModule {
  createProcessSessions(options: {
    cwd: string;
    limits?: Record<string, number>;
    logger?: Logger;
  }): ProcessSessionsView;
}

/** A logger that keeps warnings out of the table but counts them. */
export function quietLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message: string) => warnings.push(message) };
}

export const loadRegistry = () => loadPackage<RegistryModule>('@procmux/transcript', ['OutputLog']);
export const loadScreen = () => loadPackage<ScreenModule>('@procmux/screen', ['TerminalScreen']);
export const loadSupervisor = () =>
  loadPackage<SupervisorModule>('@procmux/supervisor', [
    'ProcessSupervisor',
    'hostCgroupLayout',
    'SessionCgroup',
  ]);
export const loadPtyPosix = () => loadPackage<PtyPlatformModule>('@procmux/pty-posix', ['createPtyAdapter']);
export const loadKillPosix = () =>
  loadPackage<KillPlatformModule>('@procmux/kill-posix', ['killProcessTree']);
export const loadSessions = () => loadPackage<SessionsModule>('@procmux/sessions', ['createProcessSessions']);
