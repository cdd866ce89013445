import type { ProcessRecord, RecoveredProcessHandle } from '@procmux/core-types';
import type { SessionMetadata } from '../types.js';
import type { ReplaySink } from './replay.js';

/** A session of the registry, as recovery sees it. */
export interface RecoveredSession {
  readonly live: boolean;
  metadata(): SessionMetadata;
  /** Resolves once the session's latest state is written to its record. */
  readonly persisted: Promise<void>;
}

/** A re-attached process made a session of the registry, not running yet. */
export interface ReattachedSession {
  readonly session: RecoveredSession;
  /** Lists the session in its registry and runs it (supervised, with events and persistence). */
  start(): void;
}

/**
 * The registry's wiring of a re-attached process (`reattach-session.ts`): a live session whose
 * handle runs through the supervisor like any host backend's, so input, signals, kill, wait,
 * resize and events behave as for a session started here. recover() gets it as a parameter,
 * so nothing under durable/ imports the session machinery above it.
 */
export type ReattachSession = (
  record: ProcessRecord,
  handle: RecoveredProcessHandle,
  options: { canResize: boolean; replay: ReplaySink },
) => Promise<ReattachedSession>;
