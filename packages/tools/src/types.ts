export type { JsonSchema, JsonValue } from './json-schema.js';
export type { SessionSummary, ToolResultData, WaitOutcomeKind } from './result-schema.js';

import type { ProcessSession, ProcessStartRequest } from '@procmux/sessions';
import type { JsonSchema } from './json-schema.js';
import type { ToolResultData } from './result-schema.js';
import type { EXEC_MODES, PROCESS_ACTIONS } from './schemas.js';

/** The parts of a session handle the tools use (a ProcessSession satisfies it). */
export type ToolSession = Pick<
  ProcessSession,
  | 'id'
  | 'command'
  | 'state'
  | 'live'
  | 'pid'
  | 'stdioMode'
  | 'emulated'
  | 'metadata'
  | 'poll'
  | 'log'
  | 'transcript'
  | 'input'
  | 'paste'
  | 'sendKeys'
  | 'submit'
  | 'closeStdin'
  | 'wait'
  | 'kill'
> &
  // Optional so hosts with their own session handles need not record (or cut: without
  // excerpt, a reply reads the whole transcript() and cuts it as it streams past; without
  // screen, a full-screen program's redraws are shown as gathered).
  Partial<
    Pick<
      ProcessSession,
      | 'asciicast'
      | 'checkInput'
      | 'watchInput'
      | 'excerpt'
      | 'screen'
      | 'fullScreen'
      | 'bracketedPaste'
      | 'foregroundCommand'
    >
  >;

/** The parts of a registry the tools use (what createProcessSessions returns satisfies it). */
export interface ToolSessions {
  /** The workspace root (where `process action=record` may write); record is refused without it. */
  readonly cwd?: string;
  start(request: ProcessStartRequest): Promise<ToolSession>;
  get(id: string, owner?: string): ToolSession;
  list(owner?: string): ToolSession[];
}

/** Who is calling and how to stop waiting. */
export interface ToolRunContext {
  /** The caller's owner key: sessions are started for it and only its sessions are visible. */
  owner?: string;
  /** Aborting ends a wait early; a one-shot command still running is killed. */
  signal?: AbortSignal;
  /** Long waits (wait_for) report here at least every 5 s, e.g. as MCP progress notifications. */
  onProgress?: (progress: ToolProgress) => void;
  /**
   * Hands a one_shot's prompt that hides its input (a password; kernel-detected) to a person,
   * e.g. MCP URL elicitation of a view page. Without it such a one_shot is stopped and reported.
   */
  askPerson?: (request: PersonRequest) => Promise<PersonOutcome>;
}

/** A prompt that hides what is typed, for a person to answer. */
export interface PersonRequest {
  sessionId: string;
  command: string;
  /** The prompt the program printed (`Password: `); may be empty. */
  prompt: string;
  /** Types the person's answer and Enter into the program's terminal; nothing else sees it. */
  deliver(secret: string): Promise<void>;
  /** Aborted when the call is cancelled or the program stops waiting (it ended). */
  signal: AbortSignal;
  /** How long the person has: what is left of the one_shot's timeout. */
  timeoutMs: number;
}

/** 'answered': the answer reached the program; otherwise the one_shot is stopped as before. */
export type PersonOutcome = 'answered' | 'declined' | 'timeout';

/** One progress report of a long wait. */
export interface ToolProgress {
  waitedMs: number;
  totalMs: number;
  message: string;
}

/** What a tool call returns: text for the model, data for the host. */
export interface ToolResult {
  /** Short plain text a model can read; ends with the session's state line where there is one. */
  text: string;
  /** True when the call failed (bad parameters, an error from the session layer). */
  isError: boolean;
  data: ToolResultData;
}

/** A model-facing tool: a name, a description, a JSON Schema, and `run`. */
export interface ProcessTool {
  readonly name: 'exec' | 'process';
  readonly description: string;
  readonly parameters: JsonSchema;
  /** JSON Schema of every result's `data` (RESULT_JSON_SCHEMA): an MCP tool's outputSchema. */
  readonly outputSchema: JsonSchema;
  /** Never rejects: every failure is a result with isError: true. */
  run(params: unknown, context?: ToolRunContext): Promise<ToolResult>;
}

export type ExecMode = (typeof EXEC_MODES)[number];

export type ProcessAction = (typeof PROCESS_ACTIONS)[number];
