import type { ProcessRecord, RecoveredProcessHandle } from '@procmux/core-types';
import type { SessionMetadata } from '../types.js';
import type { OutputSink } from './attach.js';

/** Where held output goes once the re-attached process has its adapter: its two channels. */
export interface OutputTarget {
  readonly stdout: { emit(data: string): void };
  readonly stderr: { emit(data: string): void };
}

/** Output that may arrive while attach() is still pending: held, then handed to the adapter. */
export function bufferedSink(): { sink: OutputSink; connect(target: OutputTarget): void } {
  const early: ['stdout' | 'stderr', string][] = [];
  let target: OutputTarget | undefined;
  const push = (stream: 'stdout' | 'stderr', data: string) => {
    if (target) target[stream].emit(data);
    else early.push([stream, data]);
  };
  return {
    sink: { stdout: (data) => push('stdout', data), stderr: (data) => push('stderr', data) },
    connect(adapter) {
      target = adapter;
      for (const [stream, data] of early.splice(0)) adapter[stream].emit(data);
    },
  };
}

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
  options: { canResize: boolean; connect(target: OutputTarget): void },
) => Promise<ReattachedSession>;
