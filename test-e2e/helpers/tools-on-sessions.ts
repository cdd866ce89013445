// The set-up the tool-driven e2e files share: a fresh workspace, a registry on it and the
// model-facing tools over that registry. Each test's registry is disposed after it, and the
// file fails if anything it started outlives it.
import { mkdtempSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { disposeAfterEach, testTmpdir } from '@procmux/test-utils';
import { createProcessTools, type ProcessTools, type ProcessToolsOptions } from '@procmux/tools';

type ToolResult = Awaited<ReturnType<ProcessTools['exec']['run']>>;

export interface ToolsOnSessions {
  /** The workspace: a real path, fresh for the test. */
  root: string;
  sessions: ProcessSessions;
  /** Runs a tool as a model would; resolves to its result, a refusal included. */
  run(tool: keyof ProcessTools, params: Record<string, unknown>): Promise<ToolResult>;
  /** Runs a tool; a result marked isError fails the test with its text. */
  call(tool: keyof ProcessTools, params: Record<string, unknown>): Promise<ToolResult>;
}

/**
 * Registers the teardown (call once, at the top of a test file) and returns the set-up each
 * test calls for its own workspace, registry and tools.
 */
export function toolsOnSessions(): (options?: ProcessToolsOptions) => ToolsOnSessions {
  const track = disposeAfterEach<ProcessSessions>();
  return (options = {}) => {
    const root = realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-e2e-')));
    const sessions = track(createProcessSessions({ cwd: root }));
    const tools = createProcessTools(sessions, options);
    const run = (tool: keyof ProcessTools, params: Record<string, unknown>) => tools[tool].run(params, {});
    const call = async (tool: keyof ProcessTools, params: Record<string, unknown>) => {
      const result = await run(tool, params);
      if (result.isError) throw new Error(`${tool} ${JSON.stringify(params)} failed:\n${result.text}`);
      return result;
    };
    return { root, sessions, run, call };
  };
}
