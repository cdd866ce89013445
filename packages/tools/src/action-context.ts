import type { ResolvedToolOptions } from './options.js';
import type { ReadParams } from './param-spec.js';
import type { Params } from './params.js';
import { sessionReply as replyTo, type SessionReply } from './reply.js';
import type { PROCESS_SPEC } from './schemas.js';
import type { ProcessAction, ToolProgress, ToolResult, ToolSession, ToolSessions } from './types.js';

/** What every process action gets. */
export interface ActionContext {
  action: ProcessAction;
  sessions: ToolSessions;
  options: ResolvedToolOptions;
  params: Params;
  /** The action's parameters, read and checked against the schema (present ones only). */
  values: ReadParams<typeof PROCESS_SPEC>;
  owner: string | undefined;
  signal: AbortSignal | undefined;
  /** Where long waits report progress, when the caller listens. */
  progress?: ((progress: ToolProgress) => void) | undefined;
  /** The session named by session_id (checked against the owner); remembered for error texts. */
  session(): ToolSession;
}

/** A result about one session of this action (see reply.ts). */
export function sessionReply(
  ctx: ActionContext,
  session: ToolSession,
  reply: SessionReply,
): Promise<ToolResult> {
  return replyTo({ tool: 'process', action: ctx.action, budget: ctx.options.outputBudget }, session, reply);
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
