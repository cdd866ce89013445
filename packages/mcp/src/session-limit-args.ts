// --session-memory SIZE, --session-pids N, --session-cpu PERCENT: every session's cgroup limits.
import { invalidOption } from '@procmux/core-types';
import { CliUsageError, cliInteger } from './cli-usage.js';

/** The limits each session's cgroup gets (see @procmux/sessions `resourceLimits`). */
export interface ResourceLimits {
  memoryBytes?: number;
  pids?: number;
  cpuPercent?: number;
}

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
const MIN_MEMORY = 4 * 1024 ** 2;

/**
 * A size as people write it: `256M`, `2G`, `512MiB`, `1048576` (bytes); K, M, G and T are
 * powers of 1024. At least 4 MiB (below it a shell cannot start).
 *
 * @example
 * parseSize('--session-memory', '256M') // 268435456
 */
export function parseSize(option: string, text: string): number {
  const match = /^(\d+)(?:([KMGT])(?:i?B)?|B)?$/i.exec(text.trim());
  const bytes = match ? Number(match[1]) * UNITS[(match[2] ?? '').toUpperCase()]! : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < MIN_MEMORY) {
    throw CliUsageError.refusal(
      invalidOption(option, 'a size of at least 4M, like 256M or 2G (K, M, G, T: powers of 1024)', {
        value: text,
      }),
    );
  }
  return bytes;
}

export function sessionLimitArgs(values: {
  'session-memory'?: string | undefined;
  'session-pids'?: string | undefined;
  'session-cpu'?: string | undefined;
}): ResourceLimits | undefined {
  const limits: ResourceLimits = {};
  if (values['session-memory'] !== undefined)
    limits.memoryBytes = parseSize('--session-memory', values['session-memory']);
  if (values['session-pids'] !== undefined)
    limits.pids = cliInteger('--session-pids', values['session-pids'], { min: 1, max: 4_194_304 });
  if (values['session-cpu'] !== undefined)
    limits.cpuPercent = cliInteger(
      '--session-cpu',
      values['session-cpu'],
      { min: 1, max: 100_000 },
      'a percentage of one CPU from 1 to 100000 (200 is two whole CPUs)',
    );
  return Object.keys(limits).length > 0 ? limits : undefined;
}

export { CliUsageError };
