import { createExecTool } from './exec-tool.js';
import { type ProcessToolsOptions, resolveToolOptions } from './options.js';
import { createProcessTool } from './process-tool.js';
import type { ProcessTool, ToolSessions } from './types.js';

/** The two tools a model gets. */
export interface ProcessTools {
  exec: ProcessTool;
  process: ProcessTool;
}

/**
 * Builds the model-facing `exec` and `process` tools over a session registry. Each tool has a
 * name, a description written for a model, a JSON Schema for its parameters, and
 * `run(params, { owner, signal })`, which resolves to `{ text, isError, data }` and never
 * rejects. Nothing starts until a tool runs.
 *
 * @example
 * const sessions = createProcessSessions({ cwd: process.cwd() });
 * const tools = createProcessTools(sessions);
 * const { text } = await tools.exec.run({ command: 'git status' });
 */
export function createProcessTools(sessions: ToolSessions, options: ProcessToolsOptions = {}): ProcessTools {
  const resolved = resolveToolOptions(options);
  return { exec: createExecTool(sessions, resolved), process: createProcessTool(sessions, resolved) };
}
