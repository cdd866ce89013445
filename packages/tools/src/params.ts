import { describe, type InvalidOptionDetails, ProcmuxError } from '@procmux/core-types';
import { echo, echoBare } from './echo.js';

/** How a string parameter is checked. */
export interface StringOptions {
  required?: boolean;
  nonEmpty?: boolean;
  /** Longest value allowed, in UTF-16 units. */
  maxChars?: number;
  /** Refuse NUL characters; the words say what cannot carry them ("a command line"). */
  noNul?: string;
}

/** A model-supplied parameter object, read field by field with errors that say what is allowed. */
export class Params {
  readonly #values: Record<string, unknown>;

  /**
   * Checks `raw` is an object whose keys are all in `known`. `null` counts as absent, because
   * some hosts send every optional field as null.
   */
  constructor(
    raw: unknown,
    known: readonly string[],
    tool: string,
    aliases: Readonly<Record<string, string>> = {},
  ) {
    const given = raw ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) {
      throw invalid('parameters', `${tool} takes an object of named parameters (got ${describe(given)})`);
    }
    this.#values = {};
    // Old camelCase names are read as their snake_case names, for one release.
    const canonical = known.filter((key) => !(key in aliases));
    for (const [key, value] of Object.entries(given)) {
      if (!known.includes(key)) {
        throw invalid(key, `unknown parameter ${echo(key)} for ${tool}; allowed: ${canonical.join(', ')}`, {
          values: canonical,
        });
      }
      if (value === null || value === undefined) continue;
      const name = aliases[key] ?? key;
      if (name in this.#values) {
        const old = Object.keys(aliases).find((a) => aliases[a] === name);
        throw invalid(name, `pass ${name} or its old name ${old}, not both`);
      }
      this.#values[name] = value;
    }
  }

  has(name: string): boolean {
    return name in this.#values;
  }

  /** Names of the parameters present. */
  present(): string[] {
    return Object.keys(this.#values);
  }

  /**
   * Refuses parameters present that `action` does not use, so nothing is silently ignored.
   * `hint`: what to do instead, for the mistake a caller makes most (text given to submit).
   */
  only(
    action: string,
    allowed: readonly string[],
    hint?: (extra: readonly string[]) => string | undefined,
  ): void {
    const extra = this.present().filter((name) => !allowed.includes(name));
    if (extra.length > 0) {
      const takes = allowed.length === 0 ? 'no other parameters' : allowed.join(', ');
      const instead = hint?.(extra);
      throw invalid(
        extra.join(', '),
        `${extra.join(', ')} ${extra.length === 1 ? 'does' : 'do'} not apply to ${action}; it takes ${takes}${instead ? ` (${instead})` : ''}`,
        { values: allowed },
      );
    }
  }

  string(name: string, options: StringOptions & { required: true }): string;
  string(name: string, options?: StringOptions & { required?: false }): string | undefined;
  string(name: string, options: StringOptions = {}): string | undefined {
    const value = this.#values[name];
    if (value === undefined) {
      if (options.required) throw invalid(name, `${name} is required`);
      return undefined;
    }
    if (typeof value !== 'string') throw invalid(name, `${name} must be a string (got ${describe(value)})`);
    if (options.nonEmpty && value.trim() === '') throw invalid(name, `${name} must not be empty`);
    if (options.maxChars !== undefined && value.length > options.maxChars) {
      throw invalid(
        name,
        `${name} is ${value.length.toLocaleString('en-US')} characters; at most ${options.maxChars.toLocaleString('en-US')} are allowed`,
        { max: options.maxChars },
      );
    }
    if (options.noNul) {
      const at = value.indexOf('\0');
      if (at !== -1) {
        throw invalid(
          name,
          `${name} contains a NUL character (\\0) at character ${at}; ${options.noNul} cannot carry NUL, so remove it`,
        );
      }
    }
    return value;
  }

  /** An integer in [min, max]; out of range is an error, never clamped. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.#values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw invalid(name, `${name} must be an integer from ${min} to ${max} (got ${describe(value)})`, {
        min,
        max,
      });
    }
    return value;
  }

  /** Any finite number (the caller decides what to do with its range). */
  number(name: string): number | undefined {
    const value = this.#values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw invalid(name, `${name} must be a number of milliseconds (got ${describe(value)})`);
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.#values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean')
      throw invalid(name, `${name} must be true or false (got ${describe(value)})`);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.#values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      throw invalid(name, `${name} must be one of ${allowed.join(', ')} (got ${describe(value)})`, {
        values: allowed,
      });
    }
    return value as T;
  }

  /** A required non-empty list of strings, each at most `maxItemChars`; a single string counts as a list of one. */
  stringList(name: string, maxItemChars = Number.POSITIVE_INFINITY): string[] {
    const value = this.#values[name];
    if (value === undefined) throw invalid(name, `${name} is required`);
    const list = typeof value === 'string' ? [value] : value;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((item) => typeof item === 'string' && item !== '')
    ) {
      throw invalid(name, `${name} must be a non-empty array of non-empty strings (got ${describe(value)})`);
    }
    const long = (list as string[]).findIndex((item) => item.length > maxItemChars);
    if (long !== -1) {
      throw invalid(
        `${name}[${long}]`,
        `${name}[${long}] is ${echo((list as string[])[long]!)}; each is at most ${maxItemChars} characters`,
        { max: maxItemChars },
      );
    }
    return list as string[];
  }

  /** Environment variables: names without "=" or NUL, string values. Values never appear in errors. */
  env(name: string): Record<string, string> | undefined {
    const value = this.#values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw invalid(
        name,
        `${name} must be an object mapping variable names to string values (got ${describe(value)})`,
      );
    }
    const out: Record<string, string> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (key === '' || key.includes('=') || key.includes('\0')) {
        throw invalid(
          name,
          `${name} has an invalid variable name ${echo(key)}; names must be non-empty without "=" or NUL`,
        );
      }
      if (typeof item !== 'string')
        throw invalid(`${name}.${key}`, `${name}.${echoBare(key)} must be a string`);
      if (item.includes('\0')) {
        throw invalid(
          `${name}.${key}`,
          `${name}.${echoBare(key)} contains a NUL character; environment values cannot carry NUL`,
        );
      }
      out[key] = item;
    }
    return out;
  }
}

/**
 * A refused model parameter: the message keeps the model-facing wording, the details have the
 * one shape of every ERR_INVALID_OPTION (InvalidOptionDetails from @procmux/core-types).
 */
export function invalid(
  option: string,
  message: string,
  facts: Omit<InvalidOptionDetails, 'option'> = {},
): ProcmuxError {
  const details: InvalidOptionDetails = { option, ...facts };
  return new ProcmuxError('ERR_INVALID_OPTION', message, { details });
}
