import { describe, ProcmuxError } from '@procmux/core-types';

/**
 * An integer option in [min, max]; `fallback` when undefined. Out of range is an error that
 * says what is allowed, never a clamp. Without `max` the message asks for "min or more".
 */
export function integerOption(
  name: string,
  value: unknown,
  fallback: number,
  min: number,
  max?: number,
): number {
  const v = value ?? fallback;
  if (typeof v === 'number' && Number.isInteger(v) && v >= min && (max === undefined || v <= max)) return v;
  const allowed = max === undefined ? `${min} or more` : `from ${min} to ${max}`;
  throw new ProcmuxError(
    'ERR_INVALID_OPTION',
    `${name} must be an integer ${allowed} (got ${describe(value)})`,
    {
      details: { option: name, min, ...(max === undefined ? {} : { max }) },
    },
  );
}
