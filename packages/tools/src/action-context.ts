import type { ResolvedToolOptions } from './options.js';
import type { Params } from './params.js';
import { sessionStateLine, summarize } from './results.js';
import { applyOutputBudget } from './truncate.js';
import type {
  ProcessAction,
  ToolProgress,
  ToolResult,
  ToolResultData,
  ToolSession,
  ToolSessions,
} from './types.js';

/** What every process action gets. */
export interface ActionContext {
  action: ProcessAction;
  sessions: ToolSessions;
  options: ResolvedToolOptions;
  params: Params;
  owner: string | undefined;
  signal: AbortSignal | undefined;
  /** Where long waits report progress, when the caller listens. */
  progress?: ((progress: ToolProgress) => void) | undefined;
  /** The session named by session_id (checked against the owner); remembered for error texts. */
  session(): ToolSession;
}

export interface SessionReply {
  header?: string;
  body?: string;
  /** Lines between the body and the state line. */
  notes?: (string | undefined)[];
  /** Log line index of the body's first line; a function when it costs a log read (only on a cut). */
  firstLine?: number | (() => Promise<number>);
  data?: Partial<ToolResultData>;
}

/** A result about one session: output within the budget, notes, then the state line. */
export async function sessionReply(
  ctx: ActionContext,
  session: ToolSession,
  reply: SessionReply,
): Promise<ToolResult> {
  const status = [...(reply.notes ?? []), sessionStateLine(session)]
    .filter((n) => n !== undefined)
    .join('\n');
  const request = {
    body: reply.body ?? '',
    budget: ctx.options.outputBudget,
    status,
    sessionId: session.id,
    ...(reply.header !== undefined ? { header: reply.header } : {}),
  };
  let shown = applyOutputBudget(
    typeof reply.firstLine === 'number' ? { ...request, firstLine: reply.firstLine } : request,
  );
  if (shown.cut && typeof reply.firstLine === 'function') {
    shown = applyOutputBudget({ ...request, firstLine: await reply.firstLine() });
  }
  const data: ToolResultData = {
    tool: 'process',
    action: ctx.action,
    session: summarize(session),
    ...(reply.body !== undefined ? { output: shown.body } : {}),
    ...(shown.cut ? { cut: shown.cut } : {}),
    ...reply.data,
  };
  return { text: shown.text, isError: false, data };
}

/**
 * Where a just-read tail of output starts in the session log: the log's line count less the
 * lines read. Output that arrives between the read and this call shifts it by a few lines.
 */
export function tailStartLine(session: ToolSession, text: string): () => Promise<number> {
  return async () => {
    const { totalLines } = await session.log({ limit: 1 });
    const lines = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
    return Math.max(0, totalLines - lines);
  };
}
