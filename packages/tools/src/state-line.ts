import type { SessionState, SignalName } from '@procmux/core-types';

/** The facts a state line is made of. */
export interface StateFacts {
  state: SessionState;
  exitCode: number | null;
  signal: SignalName | null;
}

/**
 * The last line of every result about one session, in words a model can act on.
 *
 * @example
 * stateLine({ state: 'exited', exitCode: 0, signal: null }) // 'Process exited with code 0.'
 */
export function stateLine({ state, exitCode, signal }: StateFacts): string {
  switch (state) {
    case 'starting':
    case 'running':
      return 'Process still running.';
    case 'exited':
      return `Process exited with code ${exitCode}.`;
    case 'killed':
      return signal === null
        ? 'Process was killed (no signal was reported).'
        : `Process killed by ${signal}.`;
    case 'expired':
      return 'Process expired: it reached its lifetime limit and was killed.';
    case 'released':
      return 'Process released: procmux no longer tracks it, and it may still be running.';
    case 'unknown':
      return 'Process state unknown: procmux lost track of it, so how it ended is not known.';
  }
}
