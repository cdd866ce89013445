import type { SessionState, SignalName } from '@procmux/core-types';

/** The facts a state line is made of. */
export interface StateFacts {
  state: SessionState;
  exitCode: number | null;
  signal: SignalName | null;
  /** Set while the program waits for input (metadata().input). */
  input?: { echo: boolean; prompt: string } | null;
}

/**
 * The last line of every result about one session, in words a model can act on.
 *
 * @example
 * stateLine({ state: 'exited', exitCode: 0, signal: null }) // 'Process exited with code 0.'
 */
export function stateLine({ state, exitCode, signal, input }: StateFacts): string {
  switch (state) {
    case 'starting':
    case 'running':
      return input ? waitingLine(input) : 'Process still running.';
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

/** Longest prompt quoted in a state line. */
const MAX_QUOTED_PROMPT = 120;

/**
 * @example
 * waitingLine({ echo: false, prompt: 'Password:' })
 * // 'Process is waiting for input: "Password:". (input is not echoed: likely a password)'
 */
export function waitingLine(input: { echo: boolean; prompt: string }): string {
  const prompt =
    input.prompt.length <= MAX_QUOTED_PROMPT ? input.prompt : `...${input.prompt.slice(-MAX_QUOTED_PROMPT)}`;
  const line =
    prompt === ''
      ? 'Process is waiting for input (no prompt shown).'
      : `Process is waiting for input: ${JSON.stringify(prompt)}.`;
  return input.echo ? line : `${line} (input is not echoed: likely a password)`;
}
