// JSON Schema documents, as the tool parameter and result schemas are written.

/** A JSON value, for JSON Schema documents. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A JSON Schema (draft 2020-12 subset) describing a tool's parameters. */
export type JsonSchema = { readonly [key: string]: JsonValue };
