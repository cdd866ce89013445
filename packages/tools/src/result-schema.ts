// The structured result of every call, defined once: the JSON Schema hosts get as a tool's
// outputSchema (an MCP client validates structuredContent against it) and the TypeScript type
// of `ToolResult.data` both come from RESULT_SCHEMA.
import type { ProcmuxErrorCode, SessionState, SignalName, StdioMode } from '@procmux/core-types';
import type { InputConfidence } from '@procmux/sessions';
import type { JsonSchema } from './json-schema.js';
import { EXEC_MODES, PROCESS_ACTIONS } from './schemas.js';

/** One value's JSON Schema, with the TypeScript type it describes (phantom). */
export interface Shape<T> {
  readonly schema: JsonSchema;
  /** Never set: carries T for `Infer`. */
  readonly type?: T;
}
interface Optional<T> extends Shape<T> {
  readonly optional: true;
}

/** The TypeScript type a shape describes. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

const shape = <T>(schema: JsonSchema): Shape<T> => ({ schema });
const d = (description: string | undefined): JsonSchema => (description ? { description } : {});

const string = <T extends string = string>(description?: string) =>
  shape<T>({ type: 'string', ...d(description) });
const integer = (description?: string) => shape<number>({ type: 'integer', ...d(description) });
const number = (description?: string) => shape<number>({ type: 'number', ...d(description) });
const boolean = (description?: string) => shape<boolean>({ type: 'boolean', ...d(description) });
const constant = <const T extends string | number | boolean>(value: T, description?: string) =>
  shape<T>({ const: value, ...d(description) });
const oneOf = <const T extends string>(values: readonly T[], description?: string) =>
  shape<T>({ type: 'string', enum: [...values], ...d(description) });
const nullable = <T>(inner: Shape<T>) => shape<T | null>({ anyOf: [inner.schema, { type: 'null' }] });
const array = <T>(item: Shape<T>, description?: string) =>
  shape<T[]>({ type: 'array', items: item.schema, ...d(description) });
/** A field that may be absent. */
const optional = <T>(inner: Shape<T>): Optional<T> => ({ schema: inner.schema, optional: true });

type Fields = Record<string, Shape<unknown>>;
type OptionalKeys<F extends Fields> = { [K in keyof F]: F[K] extends Optional<unknown> ? K : never }[keyof F];
type ObjectOf<F extends Fields> = { [K in Exclude<keyof F, OptionalKeys<F>>]: Infer<F[K]> } & {
  [K in OptionalKeys<F>]?: Infer<F[K]>;
};
type Flat<T> = { [K in keyof T]: T[K] };

/** An object of exactly these fields (others are refused, so the schema cannot fall behind). */
function object<F extends Fields>(fields: F, description?: string): Shape<Flat<ObjectOf<F>>> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = field.schema;
    if (!('optional' in field)) required.push(name);
  }
  return shape({ type: 'object', properties, required, additionalProperties: false, ...d(description) });
}

const INPUT_WAIT = object(
  {
    since: number('Epoch ms since which it has been seen waiting.'),
    echo: boolean('False when the terminal does not echo (a password prompt).'),
    prompt: string('The unfinished last line of the output: the prompt, maybe empty.'),
    confidence: oneOf<InputConfidence>(['kernel', 'heuristic']),
    fullScreen: optional(
      boolean('True while a full-screen program (vim, less, top) holds the terminal: no prompt is quoted.'),
    ),
  },
  'The program waits for input.',
);

const SESSION_SUMMARY = object({
  id: string(),
  command: string(),
  state: string<SessionState>(
    'starting, running, exited, killed, released, expired or unknown (a later release may add states).',
  ),
  exitCode: nullable(integer()),
  signal: nullable(string<SignalName>()),
  pid: optional(integer()),
  stdioMode: oneOf<StdioMode>(['pty', 'pipe']),
  ptyFellBack: optional(
    constant(true, 'A terminal was asked for and none could be opened: it runs on pipes.'),
  ),
  emulated: boolean('Whether output is read from a terminal screen.'),
  startedAt: number('Epoch ms.'),
  endedAt: nullable(number()),
  waitingInput: optional(INPUT_WAIT),
});

const OUTPUT_CUT = object(
  {
    omittedBytes: integer('UTF-8 bytes of the body that the result does not show.'),
    firstOmittedLine: integer(),
    lastOmittedLine: integer(),
    keptErrorLines: integer('Lines that look like errors, kept from the cut middle.'),
  },
  'Set when the output was cut to fit the budget.',
);

const WAIT_OUTCOMES = [
  'matched',
  'quiet',
  'exited',
  'timeout',
  'cancelled',
  'failed',
  'input',
  'port',
] as const;

/** The structured result of every exec and process call (`ToolResult.data`, MCP structuredContent). */
export const RESULT_SCHEMA = object({
  tool: oneOf(['exec', 'process']),
  action: optional(
    oneOf(
      [...EXEC_MODES, ...PROCESS_ACTIONS],
      'The exec mode or the process action (absent when none was named).',
    ),
  ),
  session: optional(SESSION_SUMMARY),
  sessions: optional(array(SESSION_SUMMARY)),
  output: optional(string('The output as shown in the text (after the budget).')),
  cut: optional(OUTPUT_CUT),
  droppedBytes: optional(
    integer('Bytes the session dropped before this read because nobody read them in time.'),
  ),
  waitingInput: optional(INPUT_WAIT),
  backgrounded: optional(boolean('exec one_shot: whether the command was handed to the background.')),
  ended: optional(
    array(
      object({ pid: integer(), command: string() }),
      'Processes of its tree still running when its own process exited (exec one_shot, or any session that exited on its own), ended with it.',
    ),
  ),
  survivors: optional(
    array(
      object({ pid: integer(), command: string() }),
      'Processes of its tree that outlived it (the tree kill could not end them).',
    ),
  ),
  personAnswered: optional(
    integer(
      'exec one_shot: prompts hiding their input (passwords) that a person answered through the view; what they typed is never shown.',
    ),
  ),
  timeout: optional(
    object({ requested: number(), used: number() }, 'poll: the timeout asked for and the one used.'),
  ),
  wait: optional(
    object(
      {
        outcome: oneOf(WAIT_OUTCOMES),
        fired: optional(string()),
        match: optional(string()),
        alreadyShown: optional(
          constant(true, 'The match lies on the current line as an earlier call already returned it.'),
        ),
        waitedMs: number(),
      },
      'wait_for: how the wait ended, the matched text, how long it waited.',
    ),
  ),
  alreadyDelivered: optional(
    object(
      { offset: integer(), count: integer() },
      'poll of an ended session with nothing new: log lines shown again for context, not new.',
    ),
  ),
  lines: optional(
    object(
      {
        offset: integer(),
        count: integer(),
        total: integer(),
        next: optional(object({ offset: integer(), limit: integer() }, 'The call that reads on.')),
        shortenedFrom: optional(integer('Lines the page had before it was shortened to fit the budget.')),
      },
      'log: the line window returned.',
    ),
  ),
  recording: optional(object({ path: string('Absolute.') }, 'record: where the asciicast file was written.')),
  error: optional(
    object(
      { code: string<ProcmuxErrorCode>(), message: string() },
      'Set when isError: the ProcmuxError code (or ERR_INTERNAL) and message.',
    ),
  ),
});

/** The structured side of a result, for hosts. Fields appear where they apply. */
export type ToolResultData = Infer<typeof RESULT_SCHEMA>;
/** One session as hosts see it in results. */
export type SessionSummary = Infer<typeof SESSION_SUMMARY>;
/** How a wait_for call ended. */
export type WaitOutcomeKind = (typeof WAIT_OUTCOMES)[number];

/** The JSON Schema of every result's structured side (an MCP tool's outputSchema). */
export const RESULT_JSON_SCHEMA: JsonSchema = RESULT_SCHEMA.schema;
