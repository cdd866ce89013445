import type { ProcmuxErrorCode, SessionState, SignalName, StdioMode } from '@procmux/core-types';
import type { InputWait, ProcessSession, ProcessStartRequest } from '@procmux/sessions';
import type { EXEC_MODES, PROCESS_ACTIONS } from './schemas.js';
import type { OutputCut } from './truncate.js';

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
  // Optional so hosts with their own session handles need not record.
  Partial<Pick<ProcessSession, 'asciicast' | 'checkInput' | 'watchInput'>>;

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
}

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
  /** Never rejects: every failure is a result with isError: true. */
  run(params: unknown, context?: ToolRunContext): Promise<ToolResult>;
}

export type ExecMode = (typeof EXEC_MODES)[number];

export type ProcessAction = (typeof PROCESS_ACTIONS)[number];

/** One session as hosts see it in results. */
export interface SessionSummary {
  id: string;
  command: string;
  state: SessionState;
  exitCode: number | null;
  signal: SignalName | null;
  pid: number | undefined;
  stdioMode: StdioMode;
  /** Present (true) when a terminal was asked for and none could be opened: it runs on pipes. */
  ptyFellBack?: true;
  /** Whether output is read from a terminal screen. */
  emulated: boolean;
  startedAt: number;
  endedAt: number | null;
}

/** How a wait_for call ended. */
export type WaitOutcomeKind =
  | 'matched'
  | 'quiet'
  | 'exited'
  | 'timeout'
  | 'cancelled'
  /** fail_pattern matched. */
  | 'failed'
  /** The program waits for input. */
  | 'input'
  /** The loopback port accepts connections. */
  | 'port';

/** The structured side of a result, for hosts. Fields appear where they apply. */
export interface ToolResultData {
  tool: 'exec' | 'process';
  /** The exec mode or the process action (undefined when the parameters named none). */
  action: ExecMode | ProcessAction | undefined;
  session?: SessionSummary;
  sessions?: SessionSummary[];
  /** The output as shown in `text` (after the budget). */
  output?: string;
  /** Set when the output was cut to fit the budget. */
  cut?: OutputCut;
  /** Bytes the session dropped before this read because nobody read them in time. */
  droppedBytes?: number;
  /** exec one_shot: the command was stopped because it waited for input (what at). */
  waitingInput?: InputWait;
  /** exec one_shot: whether the command was handed to the background. */
  backgrounded?: boolean;
  /** poll: the timeout asked for and the one used (they differ when clamped). */
  timeout?: { requested: number; used: number };
  /** wait_for: how the wait ended, the matched text, how long it waited. */
  wait?: { outcome: WaitOutcomeKind; fired?: string; match?: string; waitedMs: number };
  /** log: the line window returned. */
  /** poll of an ended session with nothing new: log lines shown again for context, not new. */
  alreadyDelivered?: { offset: number; count: number };
  lines?: {
    offset: number;
    count: number;
    total: number;
    /** The call that reads on (earlier lines for a tail), when there is more. */
    next?: { offset: number; limit: number };
    /** Lines the page had before it was shortened to fit the output budget. */
    shortenedFrom?: number;
  };
  /** record: where the asciicast file was written (absolute). */
  recording?: { path: string };
  /** Set when isError: the ProcmuxError code (or ERR_INTERNAL) and message. */
  error?: { code: ProcmuxErrorCode; message: string };
}
