// The output budget in the tools' words: @procmux/transcript cuts the text; the notice in the
// cut tells a model how to page what was left out with the process tool.
import {
  applyOutputBudget as applyBudget,
  budgetTranscript as budgetChunks,
  type OutputBudgetRequest,
  type OutputBudgetResult,
  type PageHint,
  type TranscriptExcerptRequest,
} from '@procmux/transcript';
import type { ToolSession } from './types.js';

/** `Read them with process action=log session_id=… offset=… limit=…`: the page a model asks for. */
export const processLogHint: PageHint = ({ sessionId, offset, limit }) =>
  `Read them with process action=log${sessionId === undefined ? '' : ` session_id=${sessionId}`} offset=${offset} limit=${limit}`;

/**
 * Fits process output into a character budget (see @procmux/transcript's applyOutputBudget),
 * its cut notice naming `process action=log`.
 *
 * @example
 * applyOutputBudget({ body: hugeLog, budget: 30_000, status: 'Process exited with code 1.', sessionId, firstLine: 0 })
 */
export function applyOutputBudget(request: OutputBudgetRequest): OutputBudgetResult {
  return applyBudget({ pageHint: processLogHint, ...request });
}

/**
 * The same over a session's whole transcript, never held whole: its own excerpt where it has
 * one (a pipe session's reads only what the cut shows), else its transcript() as it streams.
 */
export function budgetTranscript(
  session: ToolSession,
  request: TranscriptExcerptRequest,
): Promise<OutputBudgetResult> {
  const worded = { pageHint: processLogHint, ...request };
  return session.excerpt ? session.excerpt(worded) : budgetChunks(session.transcript(), worded);
}
