import type { ProcessEvent } from '@procmux/core-types';
import type { ResolvedProcessSessionLimits } from '@procmux/registry';
import type { RecordSource } from '../durable/record.js';
import type { InputDetector } from '../input-wait/detector.js';
import type { ExecutionPolicy } from './policy.js';

/** What a session needs from its registry. */
export interface SessionContext {
  readonly limits: ResolvedProcessSessionLimits;
  readonly policy: ExecutionPolicy | undefined;
  emit(event: ProcessEvent): void;
  /** Expiry sweep, run on every handle access (there is no timer). */
  sweep(): Promise<void>;
  /** Durable registries only: writes a session's state to its record (never rejects). */
  persist?(source: RecordSource): Promise<void>;
  /** Where output beyond the memory window spills (default: the OS temp dir). */
  readonly outputSpillDir?: string;
  /** Waiting-for-input detector; the platform's own when absent. */
  readonly inputDetector?: InputDetector;
}
