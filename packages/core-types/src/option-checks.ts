// The one option-validation toolkit of procmux. Every package checks its options with these
// helpers, so a bad value always fails the same way: ERR_INVALID_OPTION, a message of the form
// "<option> must be <what is allowed> (got <value>)", and details of one shape
// (InvalidOptionDetails). Nothing is clamped or dropped: a value is used as given or refused.
import { ProcmuxError } from './errors.js';
import type { Limit } from './limits.js';

/** The `details` of every ERR_INVALID_OPTION: the option's name plus the facts that bound it. */
// A type alias, not an interface: it must fit ProcmuxError's Record<string, unknown> details.
export type InvalidOptionDetails = {
  /** The option as the caller spells it (`cols`, `limits.maxSessions`, `env.PATH`). */
  readonly option: string;
  /** Smallest allowed number, for a numeric option. */
  readonly min?: number;
  /** Largest allowed number, for a numeric option. */
  readonly max?: number;
  /** The allowed values, for an option that takes one of a fixed set. */
  readonly values?: readonly string[];
  /** Options that must be given together and were not. */
  readonly missing?: readonly string[];
};

/** What invalidOption() may add to its message and details. */
export type InvalidOptionFacts = Omit<InvalidOptionDetails, 'option'> & {
  /** The refused value, shown in the message as "(got …)"; leave the key out to hide it (secrets). */
  readonly value?: unknown;
  readonly cause?: unknown;
};

/**
 * The refusal of one option: `<option> must be <allowed> (got <value>)`. The value is shown
 * only when `facts` has a `value` key, described briefly by describe() (a long string shows
 * its length only), so secrets are never echoed unless a caller asks.
 *
 * @example
 * throw invalidOption('cols', 'an integer from 1 to 500', { value: 0, min: 1, max: 500 });
 * // ProcmuxError ERR_INVALID_OPTION "cols must be an integer from 1 to 500 (got 0)"
 */
export function invalidOption(option: string, allowed: string, facts: InvalidOptionFacts = {}): ProcmuxError {
  const { value, cause, ...bounds } = facts;
  const got = 'value' in facts ? ` (got ${describe(value)})` : '';
  const details: InvalidOptionDetails = { option, ...definedOnly(bounds) };
  return new ProcmuxError('ERR_INVALID_OPTION', `${option} must be ${allowed}${got}`, {
    details,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** How an optional option treats `undefined`: use a default, demand a value, or stay undefined. */
interface Presence<T> {
  /** Used when the value is undefined. */
  default?: T;
  /** Undefined is refused (ignored when a default is given). */
  required?: boolean;
}

type Resolved<T, P> = P extends { default: T } ? T : P extends { required: true } ? T : T | undefined;

/** An integer range; both ends inclusive. */
export interface IntegerRange extends Presence<number> {
  min: number;
  max: number;
}

/**
 * An integer in [min, max]. Undefined gives the default (or undefined when none, or a refusal
 * when required). A fraction, NaN, Infinity or a numeric string is refused, never rounded.
 */
export function integerOption<R extends IntegerRange>(
  option: string,
  value: unknown,
  range: R,
): Resolved<number, R>;
export function integerOption(option: string, value: unknown, range: IntegerRange): number | undefined {
  if (value === undefined && !mustBePresent(range)) return range.default;
  if (typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max)
    return value;
  throw invalidOption(option, `an integer from ${range.min} to ${range.max}`, {
    value,
    min: range.min,
    max: range.max,
  });
}

/** One of a fixed set of strings. */
export function oneOf<T extends string, P extends Presence<T> = Presence<T>>(
  option: string,
  value: unknown,
  values: readonly T[],
  presence?: P,
): Resolved<T, P>;
export function oneOf<T extends string>(
  option: string,
  value: unknown,
  values: readonly T[],
  presence: Presence<T> = {},
): T | undefined {
  if (value === undefined && !mustBePresent(presence)) return presence.default;
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw invalidOption(option, `one of ${values.map((v) => `'${v}'`).join(', ')}`, { value, values });
}

/** What a string option may hold besides being non-empty. */
export interface StringRule extends Presence<string> {
  /** Refuse a string of spaces only (default false). */
  nonBlank?: boolean;
  /** Allow NUL characters (default false: a NUL cannot reach exec, a path or a shell). */
  allowNul?: boolean;
  /** Longest allowed, in UTF-16 code units (characters). */
  maxChars?: number;
  /** Hide the value in the message (a command or a token may hold a secret). */
  secret?: boolean;
}

/** A non-empty string, without NUL unless allowed. */
export function nonEmptyString<R extends StringRule = StringRule>(
  option: string,
  value: unknown,
  rule?: R,
): Resolved<string, R>;
export function nonEmptyString(option: string, value: unknown, rule: StringRule = {}): string | undefined {
  if (value === undefined && !mustBePresent(rule)) return rule.default;
  const ok =
    typeof value === 'string' &&
    value.length > 0 &&
    (rule.allowNul === true || !value.includes('\0')) &&
    (rule.nonBlank !== true || value.trim().length > 0) &&
    (rule.maxChars === undefined || value.length <= rule.maxChars);
  if (ok) return value;
  const words = [
    rule.nonBlank === true ? 'a non-blank string' : 'a non-empty string',
    rule.maxChars === undefined ? '' : ` of at most ${rule.maxChars} characters`,
    rule.allowNul === true ? '' : ' without NUL characters',
  ].join('');
  const facts: InvalidOptionFacts = rule.maxChars === undefined ? {} : { max: rule.maxChars };
  throw invalidOption(option, words, rule.secret === true ? facts : { ...facts, value });
}

/**
 * An integer option bounded by one of the published limits: undefined gives limit.default; an
 * integer in [min, limit.hard] is itself; anything else is refused. Never clamps.
 */
export function resolveLimit(name: string, value: unknown, limit: Limit, min = 1): number {
  return integerOption(name, value, { min, max: limit.hard, default: limit.default });
}

/** A short, non-secret description of a bad value for an error message. */
export function describe(value: unknown): string {
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined)
    return String(value);
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** true or false; undefined gives the default. */
export function booleanOption(option: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  throw invalidOption(option, 'true or false', { value });
}

/** A function (a callback or an injected effect), or undefined. */
export function functionOption<T extends (...args: never[]) => unknown>(
  option: string,
  value: unknown,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') return value as T;
  throw invalidOption(option, 'a function', { value });
}

/** An options argument: undefined or null gives {}, a plain object is itself, anything else is refused. */
export function optionsObject<T extends object>(value: unknown, option = 'options'): Partial<T> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidOption(option, 'an object', { value });
  return value as Partial<T>;
}

/** Refuses a key not in `known`, so a typo never leaves a default silently in force. */
export function knownKeys(option: string, value: object, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw invalidOption(`${option}.${key}`, `one of the known ${option}: ${known.join(', ')}`, {
        values: known,
      });
    }
  }
}

/** Refuses unless exactly one of the named options is given; `what` says what each one means. */
export function exactlyOne(
  options: Readonly<Record<string, unknown>>,
  names: readonly string[],
  what = '',
): void {
  const given = names.filter((name) => options[name] !== undefined);
  if (given.length === 1) return;
  const list = names.join(' or ');
  throw invalidOption(list, `given, exactly one of the ${names.length}${what === '' ? '' : ` (${what})`}`, {
    ...(given.length === 0 ? { missing: names } : {}),
  });
}

/** An array of strings without NUL (exec arguments); undefined stays undefined. Values are not echoed. */
export function stringArrayOption(option: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' && !item.includes('\0'))) {
    return [...(value as string[])];
  }
  throw invalidOption(option, 'an array of strings without NUL characters', { value });
}

/**
 * A child's environment: names non-empty without '=' or NUL, values strings without NUL or
 * undefined (left out). Undefined stays undefined. Values are never shown: they carry secrets.
 */
export function envOption(
  value: unknown,
  option = 'env',
): Readonly<Record<string, string | undefined>> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOption(option, 'an object of string values', { value });
  }
  for (const [name, entry] of Object.entries(value)) {
    if (name === '' || name.includes('=') || name.includes('\0')) {
      throw invalidOption(option, "an object whose names are non-empty, without '=' or NUL", { value: name });
    }
    if (entry !== undefined && (typeof entry !== 'string' || entry.includes('\0'))) {
      throw invalidOption(
        `${option}.${name}`,
        'a string without NUL characters, or undefined to leave it out',
      );
    }
  }
  return value as Readonly<Record<string, string | undefined>>;
}

function mustBePresent(presence: Presence<unknown>): boolean {
  return presence.default === undefined && presence.required === true;
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
