// The notice as the process tool words it (tools/src/budget.ts): these tests came from
// @procmux/tools and pin the exact text a model reads, so they cut with the same page hint.
import {
  applyOutputBudget as applyBudget,
  type OutputBudgetRequest,
  type OutputBudgetResult,
  type PageHint,
} from '../../src/excerpt/truncate.js';

const processLogHint: PageHint = ({ sessionId, offset, limit }) =>
  `Read them with process action=log${sessionId === undefined ? '' : ` session_id=${sessionId}`} offset=${offset} limit=${limit}`;

export function applyOutputBudget(request: OutputBudgetRequest): OutputBudgetResult {
  return applyBudget({ pageHint: processLogHint, ...request });
}
