import { invalidOption, type ProcmuxError } from '@procmux/core-types';

/**
 * A command line that cannot run; the message says what is allowed. A bad option value is
 * refused by the core-types toolkit and carried as the cause: ERR_INVALID_OPTION with
 * `details` {option, min?, max?, values?, missing?}, as every procmux option check.
 */
export class CliUsageError extends Error {
  override name = 'CliUsageError';

  /** The usage error for one refused option value (its message, the refusal as its cause). */
  static refusal(error: ProcmuxError): CliUsageError {
    return new CliUsageError(error.message, { cause: error });
  }
}

/**
 * A whole number typed on the command line: digits only, within the range. The refusal shows
 * the text as typed (`(got "2.5")`).
 */
export function cliInteger(
  option: string,
  text: string,
  range: { min: number; max: number },
  allowed = `an integer from ${range.min} to ${range.max}`,
): number {
  const value = Number(text);
  if (/^\d+$/.test(text) && value >= range.min && value <= range.max) return value;
  throw CliUsageError.refusal(invalidOption(option, allowed, { value: text, ...range }));
}
