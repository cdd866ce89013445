// The public face of @procmux/tools: every name here is listed in the README's "Exports".

export {
  ERROR_LINE_PATTERN,
  fitText,
  type OutputBudgetRequest,
  type OutputBudgetResult,
  type OutputCut,
} from '@procmux/transcript';
export { applyOutputBudget } from './budget.js';
export { createProcessTools, type ProcessTools } from './create-tools.js';
export { EXEC_DESCRIPTION, PROCESS_DESCRIPTION } from './descriptions.js';
export { echo, MAX_ECHO_CHARS } from './echo.js';
export { NON_INTERACTIVE_ENV, PIPE_OUTPUT_ENV } from './environment.js';
export { MAX_WAIT_MS, type ProcessToolsOptions } from './options.js';
export { RESULT_JSON_SCHEMA } from './result-schema.js';
export {
  DEFAULT_WAIT_FOR_MS,
  EXEC_PARAMETERS,
  type ExecParams,
  PROCESS_PARAMETERS,
  type ProcessParams,
} from './schemas.js';
export { formatBytes, type StateFacts, stateLine, usageSuffix } from './state-line.js';
export type {
  ExecMode,
  JsonSchema,
  JsonValue,
  PersonOutcome,
  PersonRequest,
  ProcessAction,
  ProcessTool,
  SessionSummary,
  ToolProgress,
  ToolResult,
  ToolResultData,
  ToolRunContext,
  ToolSession,
  ToolSessions,
  WaitOutcomeKind,
} from './types.js';
