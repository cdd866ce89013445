import type { Logger, ProcessEvent } from '@procmux/core-types';
import type { ResolvedProcessSessionLimits, SessionBook } from '@procmux/registry';
import type { CgroupLayout, ProcessSupervisor, ResourceLimits } from '@procmux/supervisor';
import type { ContainmentMode } from '../backends/containment.js';
import type { ProcessPtyBackend, PtyBackendChoice } from '../backends/pty-backend.js';
import type { ProcessSandboxBackend } from '../backends/sandbox.js';
import type { DurableJournal } from '../durable/journal.js';
import type { SessionContext } from '../session/context.js';
import type { LiveSession } from '../session/live-session.js';
import type { ProcessSessionsOptions } from '../types.js';

/**
 * What one registry holds, shared by start-session.ts, sweep.ts and registry.ts: the book of
 * sessions (@procmux/registry's: sessions, issued ids, reserved slots) and what runs them.
 */
export interface RegistryState extends SessionBook<LiveSession> {
  readonly options: ProcessSessionsOptions;
  readonly workspace: string;
  /** The workspace's path rules: this host's realpath, or a remote sandbox's own. */
  readonly resolveCwd: (workspace: string, requested?: string) => string;
  readonly limits: ResolvedProcessSessionLimits;
  readonly logger: Logger;
  readonly sandbox: ProcessSandboxBackend | undefined;
  readonly ptyBackend: PtyBackendChoice;
  /** Where `lifetime: 'detached'` PTY sessions start when `ptyBackend` is not persistent. */
  readonly persistentPtyBackend: ProcessPtyBackend | undefined;
  /** lifetime 'detached' sessions (started or re-attached here): dispose() leaves them running. */
  readonly detached: Set<string>;
  readonly supervisor: ProcessSupervisor;
  readonly containment: ContainmentMode;
  readonly resourceLimits: ResourceLimits;
  /** The host's own cgroups, read once on the first start that wants one. */
  cgroupLayout(): CgroupLayout | undefined;
  readonly journal: DurableJournal | undefined;
  readonly context: SessionContext;
  readonly finishedTtlMs: number;
  readonly maxEndedSessions: number;
  emit(event: ProcessEvent): void;
  sandboxLost: boolean;
  disposed: boolean;
}
