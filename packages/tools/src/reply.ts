// The one builder of a result about a session, for the exec modes and the process actions
// alike: output within the budget, notes, then the state line, and the same `data` shape.

import type { OutputBudgetResult } from '@procmux/transcript';
import { leftoverReport } from './background-report.js';
import { applyOutputBudget, budgetTranscript } from './budget.js';
import { sessionStateLine, summarize } from './results.js';
import { sandboxLines } from './sandbox-lines.js';
import type { ExecMode, ProcessAction, ToolResult, ToolResultData, ToolSession } from './types.js';

/** Which call the result answers, and its character budget. */
export interface ReplyTarget {
  tool: 'exec' | 'process';
  action: ExecMode | ProcessAction;
  budget: number;
}

export interface SessionReply {
  header?: string;
  /** The output to show (cut in the middle to fit the budget). */
  body?: string;
  /**
   * The session's whole transcript as the output, never held whole (a one-shot's); `empty` is
   * shown when it has none. Instead of `body`.
   */
  transcript?: { empty: string };
  /** Lines between the body and the state line. */
  notes?: (string | undefined)[];
  /** Log line index of the body's first line; a function when it costs a log read (only on a cut). */
  firstLine?: number | (() => Promise<number>);
  data?: Partial<ToolResultData>;
  /** An ended session's state line says what it used (cpu, peak memory) where known. */
  usage?: boolean;
  /** The call failed (the result still describes the session). */
  isError?: boolean;
}

/** A result about one session: output within the budget, notes, then the state line. */
export async function sessionReply(
  target: ReplyTarget,
  session: ToolSession,
  reply: SessionReply,
): Promise<ToolResult> {
  // A one_shot names what ended with it itself (after the hang-up settled).
  const left = target.action === 'one_shot' ? undefined : leftoverReport(session.metadata());
  // A sandbox's refusals come last: what the command hit, after how it ended.
  const sandbox = sandboxLines(session);
  const status = [
    ...(reply.notes ?? []),
    ...(left?.notes ?? []),
    ...sandbox.notes,
    sessionStateLine(session, reply.usage === true),
    ...sandbox.lines,
  ]
    .filter((n) => n !== undefined)
    .join('\n');
  const request = {
    budget: target.budget,
    status,
    sessionId: session.id,
    ...(reply.header !== undefined ? { header: reply.header } : {}),
  };
  let shown: OutputBudgetResult | undefined;
  if (reply.transcript) {
    shown = await budgetTranscript(session, {
      ...request,
      empty: reply.transcript.empty,
      firstLine: typeof reply.firstLine === 'number' ? reply.firstLine : 0,
    });
  } else {
    const body = { ...request, body: reply.body ?? '' };
    shown = applyOutputBudget(
      typeof reply.firstLine === 'number' ? { ...body, firstLine: reply.firstLine } : body,
    );
    if (shown.cut && typeof reply.firstLine === 'function') {
      shown = applyOutputBudget({ ...body, firstLine: await reply.firstLine() });
    }
  }
  const output = reply.body !== undefined || reply.transcript !== undefined;
  const data: ToolResultData = {
    tool: target.tool,
    action: target.action,
    session: summarize(session),
    ...(output ? { output: shown.body } : {}),
    ...(shown.cut ? { cut: shown.cut } : {}),
    ...left?.data,
    ...reply.data,
  };
  return { text: shown.text, isError: reply.isError === true, data };
}
