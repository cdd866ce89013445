import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createProcessSessions,
  type PollResult,
  type ProcessSessions,
  type ProcessSessionsOptions,
} from '@procmux/sessions';
import { assertNoLeakedProcesses } from '@procmux/test-utils';
import { afterAll, afterEach } from 'vitest';
import {
  createProcessTools,
  type ProcessTools,
  type ProcessToolsOptions,
  type ToolResult,
} from '../src/index.js';

export interface Harness {
  root: string;
  sessions: ProcessSessions;
  tools: ProcessTools;
  /** exec, expecting success; returns the result. */
  exec(params: Record<string, unknown>): Promise<ToolResult>;
  /** process, expecting success. */
  proc(params: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** A registry over a fresh temporary workspace, with the tools on top. */
export function harness(
  options: ProcessToolsOptions = {},
  sessionOptions: Partial<ProcessSessionsOptions> = {},
): Harness {
  const root = mkdtempSync(join(tmpdir(), 'procmux-tools-'));
  const sessions = createProcessSessions({ cwd: root, ...sessionOptions });
  const tools = createProcessTools(sessions, options);
  const ok = async (result: Promise<ToolResult>) => {
    const r = await result;
    if (r.isError) throw new Error(`unexpected error result:\n${r.text}`);
    return r;
  };
  return {
    root,
    sessions,
    tools,
    exec: (params) => ok(tools.exec.run(params)),
    proc: (params) => ok(tools.process.run(params)),
    async close() {
      await sessions.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The teardown of a test file that drives the tools (call once, at its top): returns
 * `harness`, whose harnesses are closed after each test (then `afterClose` runs, to forget
 * them); once the file is done, nothing it started may still be alive.
 */
export function closingHarness(afterClose?: () => void): typeof harness {
  const open: Harness[] = [];
  afterEach(async () => {
    for (const made of open.splice(0)) await made.close();
    afterClose?.();
  });
  afterAll(async () => {
    await assertNoLeakedProcesses();
  });
  return (...args) => {
    const made = harness(...args);
    open.push(made);
    return made;
  };
}

export function idOf(result: ToolResult): string {
  const id = result.data.session?.id;
  if (!id) throw new Error(`no session in result:\n${result.text}`);
  return id;
}

/** The text's last line: the state line. */
export function lastLine(text: string): string {
  return text.split('\n').at(-1) ?? '';
}

/** A running session's poll that brought `stdout`, with any other fields given. */
export function pollOf(stdout: string, extra: Partial<PollResult> = {}): PollResult {
  return { stdout, stderr: '', state: 'running', exitCode: null, signal: null, droppedBytes: 0, ...extra };
}
