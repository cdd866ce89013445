// One definition per tool parameter: each field carries its JSON Schema (with the words the
// model reads) and its reader (with the words a refusal says); the tool's JSON Schema, its
// TypeScript parameter type and its parser are all derived from the same table.

import type { JsonSchema } from './json-schema.js';
import { invalid, Params, type StringOptions } from './params.js';

/** One parameter: its JSON Schema property and how a call's value is read and checked. */
export interface ParamField<T, Required extends boolean = false, Schema extends JsonSchema = JsonSchema> {
  readonly schema: Schema;
  readonly required: Required;
  /** Set on an old camelCase name: the snake_case name it means. */
  readonly aliasOf?: string;
  read(params: Params, name: string): T | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: a table holds fields of every value type
export type ParamSpec = Readonly<Record<string, ParamField<any, boolean, JsonSchema>>>;

type ValueOf<F> = F extends ParamField<infer T, boolean, JsonSchema> ? T : never;
type RequiredKeys<S extends ParamSpec> = {
  [K in keyof S]: S[K] extends ParamField<unknown, true, JsonSchema> ? K : never;
}[keyof S];

/** The TypeScript type of a call's parameters, as the spec's JSON Schema describes them. */
export type ParamsOf<S extends ParamSpec> = { [K in RequiredKeys<S>]: ValueOf<S[K]> } & {
  [K in Exclude<keyof S, RequiredKeys<S>>]?: ValueOf<S[K]>;
};

/** The values a call gave, read and checked; absent ones are undefined. */
export type ReadParams<S extends ParamSpec> = { [K in keyof S]?: ValueOf<S[K]> };

type Described = { description: string };

function field<T>(schema: JsonSchema, read: (p: Params, name: string) => T | undefined): ParamField<T> {
  return { schema, required: false, read };
}

/** A string parameter; `required` makes it required in the schema and in the parser. */
export function stringParam<R extends boolean = false>(
  options: StringOptions & Described & { required?: R; schema?: JsonSchema },
): ParamField<string, R> {
  const { description, schema, required, ...checks } = options;
  const minLength: JsonSchema = checks.nonEmpty ? { minLength: 1 } : {};
  return {
    schema: { type: 'string', ...minLength, ...schema, description },
    required: (required ?? false) as R,
    read: (p, name) => (required ? p.string(name, { ...checks, required: true }) : p.string(name, checks)),
  };
}

/** An integer in [min, max]: out of range is refused, never clamped. */
export function integerParam(
  min: number,
  max: number,
  options: Described,
): ParamField<number, false, { type: 'integer'; minimum: number; maximum: number; description: string }> {
  return {
    schema: { type: 'integer', minimum: min, maximum: max, description: options.description },
    required: false,
    read: (p, n) => p.integer(n, min, max),
  };
}

/** Any finite number; the action decides what its range means. */
export function numberParam(options: Described): ParamField<number> {
  return field({ type: 'number', description: options.description }, (p, n) => p.number(n));
}

export function booleanParam(options: Described): ParamField<boolean> {
  return field({ type: 'boolean', description: options.description }, (p, n) => p.boolean(n));
}

/** A flag that is only ever `true` (wait_for's exit, input); `false` is refused, saying what true means. */
export function trueParam(options: Described & { means: string }): ParamField<true> {
  return field({ type: 'boolean', const: true, description: options.description }, (p, n) => {
    const value = p.boolean(n);
    if (value === false) throw invalid(n, `${n} must be true (${options.means}); leave it out otherwise`);
    return value;
  });
}

/** One of a fixed list of strings. */
export function enumParam<const T extends string, R extends boolean = false>(
  values: readonly T[],
  options: Described & { default?: T; required?: R },
): ParamField<T, R> {
  return {
    schema: {
      type: 'string',
      enum: [...values],
      ...(options.default !== undefined ? { default: options.default } : {}),
      description: options.description,
    },
    required: (options.required ?? false) as R,
    read: (p, name) => p.oneOf(name, values),
  };
}

/** Environment variables: names without "=" or NUL, string values. */
export function envParam(options: Described): ParamField<Record<string, string>> {
  return field(
    { type: 'object', additionalProperties: { type: 'string' }, description: options.description },
    (p, n) => p.env(n),
  );
}

/** A non-empty list of non-empty strings, or one string (a list of one). */
export function stringListParam(maxItemChars: number, options: Described): ParamField<string | string[]> {
  return field(
    {
      anyOf: [
        { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
        { type: 'string', minLength: 1 },
      ],
      description: options.description,
    },
    (p, n) => (p.has(n) ? p.stringList(n, maxItemChars) : undefined),
  );
}

/** An old camelCase name, read as `of` for one release (Params maps it before any reading). */
export function aliasParam(of: string, type: 'string' | 'integer'): ParamField<never> {
  return {
    schema: { type, description: `Old name of ${of}, accepted until the next major release.` },
    required: false,
    aliasOf: of,
    read: () => undefined,
  };
}

/** The JSON Schema of a tool's parameters: an object of exactly the spec's properties. */
export function specSchema<S extends ParamSpec>(spec: S) {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(spec)) {
    properties[name] = f.schema;
    if (f.required) required.push(name);
  }
  return {
    type: 'object',
    properties: properties as { readonly [K in keyof S]: S[K]['schema'] },
    required,
    additionalProperties: false,
  } as const;
}

/** Old name → new name, from the spec's alias fields. */
export function specAliases(spec: ParamSpec): Readonly<Record<string, string>> {
  return Object.fromEntries(
    Object.entries(spec).flatMap(([name, f]) => (f.aliasOf ? [[name, f.aliasOf]] : [])),
  );
}

/** A call's parameter object opened against the spec: unknown names and name-plus-alias refused. */
export function openParams(spec: ParamSpec, raw: unknown, tool: string): Params {
  return new Params(raw, Object.keys(spec), tool, specAliases(spec));
}

/** Refuses a call that lacks one of `names` ("data is required"). */
export function requireParams(params: Params, names: readonly string[]): void {
  const missing = names.find((name) => !params.has(name));
  if (missing !== undefined) throw invalid(missing, `${missing} is required`);
}

/** Reads and checks `names` (default: every field) in the spec's order. */
export function readParams<S extends ParamSpec>(
  spec: S,
  params: Params,
  names: readonly (keyof S & string)[] = Object.keys(spec),
): ReadParams<S> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(spec)) {
    const f = spec[name]!;
    if (f.aliasOf || !names.includes(name)) continue;
    const value = f.read(params, name);
    if (value !== undefined) out[name] = value;
  }
  return out as ReadParams<S>;
}
