import type { SessionState, SignalName } from '@procmux/core-types';

/** The facts a state line is made of. */
export interface StateFacts {
  state: SessionState;
  exitCode: number | null;
  signal: SignalName | null;
  /** Set while the program waits for input (metadata().input). */
  input?: { echo: boolean; prompt: string; fullScreen?: true } | null;
  /** From the session's cgroup (metadata().usage): an out-of-memory kill is named as such. */
  usage?: { cpuMs: number | null; memoryPeakBytes: number | null; oomKills: number } | null;
  /** The limits in force (metadata().resourceLimits): the memory limit an OOM line names. */
  resourceLimits?: { memoryBytes?: number };
}

/**
 * The last line of every result about one session, in words a model can act on.
 *
 * @example
 * stateLine({ state: 'exited', exitCode: 0, signal: null }) // 'Process exited with code 0.'
 */
export function stateLine({ state, exitCode, signal, input, usage, resourceLimits }: StateFacts): string {
  switch (state) {
    case 'starting':
    case 'running':
      return input ? waitingLine(input) : 'Process still running.';
    case 'exited':
      // A shell that outlived its OOM-killed command exits 128 + SIGKILL: the same death.
      if (exitCode === 137 && usage && usage.oomKills > 0) return oomLine(resourceLimits?.memoryBytes);
      return `Process exited with code ${exitCode}.`;
    case 'killed':
      if (usage && usage.oomKills > 0) return oomLine(resourceLimits?.memoryBytes);
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

function oomLine(limit: number | undefined): string {
  return limit === undefined
    ? 'Process killed: out of memory.'
    : `Process killed: out of memory (limit ${formatBytes(limit)}).`;
}

/** Longest prompt quoted in a state line. */
const MAX_QUOTED_PROMPT = 120;

/**
 * @example
 * waitingLine({ echo: false, prompt: 'Password:' })
 * // 'Process is waiting for input: "Password:". (input is not echoed: likely a password)'
 * waitingLine({ echo: true, prompt: '', fullScreen: true })
 * // 'Process is waiting for input (a full-screen program: the screen shows where).'
 */
export function waitingLine(input: { echo: boolean; prompt: string; fullScreen?: true }): string {
  // The cursor's row of a full-screen program is its text (a line of the file in vim).
  if (input.fullScreen)
    return 'Process is waiting for input (a full-screen program: the screen shows where).';
  const prompt =
    input.prompt.length <= MAX_QUOTED_PROMPT ? input.prompt : `...${input.prompt.slice(-MAX_QUOTED_PROMPT)}`;
  const line =
    prompt === ''
      ? 'Process is waiting for input (no prompt shown).'
      : `Process is waiting for input: ${JSON.stringify(prompt)}.`;
  return input.echo ? line : `${line} (input is not echoed: likely a password)`;
}

/**
 * What an ended session used, for the end line of an exec reply; '' when nothing is known.
 *
 * @example
 * usageSuffix({ cpuMs: 210, memoryPeakBytes: 117_440_512, oomKills: 0 }) // ' (cpu 0.21 s, peak memory 112 MiB)'
 */
export function usageSuffix(usage: StateFacts['usage']): string {
  if (!usage) return '';
  const parts: string[] = [];
  if (usage.cpuMs !== null) parts.push(`cpu ${(usage.cpuMs / 1000).toFixed(2)} s`);
  if (usage.memoryPeakBytes !== null) parts.push(`peak memory ${formatBytes(usage.memoryPeakBytes)}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

const MIB = 1024 * 1024;

/** Bytes as MiB (GiB from 1 GiB), whole from 10 up, one decimal below. */
export function formatBytes(bytes: number): string {
  const [value, unit] = bytes >= 1024 * MIB ? [bytes / (1024 * MIB), 'GiB'] : [bytes / MIB, 'MiB'];
  const shown = value >= 10 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1);
  return `${shown} ${unit}`;
}
