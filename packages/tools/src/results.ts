import { isProcmuxError, type ProcmuxErrorCode } from '@procmux/core-types';
import { fitText } from '@procmux/transcript';
import { stateLine, usageSuffix } from './state-line.js';
import type {
  ExecMode,
  ProcessAction,
  SessionSummary,
  ToolResult,
  ToolResultData,
  ToolSession,
} from './types.js';

/** A session as hosts see it in `data`. */
export function summarize(session: ToolSession): SessionSummary {
  const m = session.metadata();
  return {
    id: m.id,
    command: m.command,
    state: m.state,
    exitCode: m.exitCode,
    signal: m.signal,
    pid: m.pid,
    stdioMode: m.stdioMode,
    ...(m.ptyFellBack ? { ptyFellBack: true } : {}),
    emulated: m.emulated,
    startedAt: m.startedAt,
    endedAt: m.endedAt,
    ...(m.input ? { waitingInput: { ...m.input } } : {}),
  };
}

/** Sessions whose end a result has already told the model (through its state line). */
const endsShown = new WeakSet<ToolSession>();

/**
 * The state line of a session, from its current metadata; an ended state counts as told.
 * `usage`: an ended session's line also says what it used (the end of an exec reply).
 */
export function sessionStateLine(session: ToolSession, usage = false): string {
  const metadata = session.metadata();
  if (metadata.endedAt !== null) endsShown.add(session);
  const line = stateLine(metadata);
  // An out-of-memory death is the whole story; its line stays as it is.
  const oom = metadata.state === 'killed' && (metadata.usage?.oomKills ?? 0) > 0;
  return usage && metadata.endedAt !== null && !oom ? `${line}${usageSuffix(metadata.usage)}` : line;
}

/** Whether an earlier result already said that this session ended. */
export function endShown(session: ToolSession): boolean {
  return endsShown.has(session);
}

/** What codes mean for a model, where the error message alone does not say what to do next. */
const NEXT_STEP: Partial<Record<ProcmuxErrorCode, string>> = {
  ERR_PROCESS_NOT_FOUND: 'Use process action=list to see the sessions you can use.',
  ERR_PROCESS_PTY_UNSUPPORTED: "Run it with exec mode 'daemon' (pipes) instead.",
  ERR_PROCESS_LIMIT: 'Kill a session you no longer need (process action=list, then action=kill).',
};

/** Any failure as an error result: a ProcmuxError keeps its code; anything else is ERR_INTERNAL. */
export function errorResult(
  tool: 'exec' | 'process',
  action: ExecMode | ProcessAction | undefined,
  error: unknown,
  session?: ToolSession,
): ToolResult {
  const code: ProcmuxErrorCode = isProcmuxError(error) ? error.code : 'ERR_INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`Error [${code}]: ${message}`];
  const next = NEXT_STEP[code];
  if (next) lines.push(next);
  const data: ToolResultData = { tool, action, error: { code, message } };
  if (session) {
    lines.push('', sessionStateLine(session));
    data.session = summarize(session);
  }
  return { text: lines.join('\n'), isError: true, data };
}

/**
 * Wraps a tool body so it never rejects, and so no result, error or not, is longer than
 * `budget` characters whatever the input made it say.
 */
export async function guarded(
  tool: 'exec' | 'process',
  action: () => ExecMode | ProcessAction | undefined,
  budget: number,
  body: (setSession: (session: ToolSession) => void) => Promise<ToolResult>,
): Promise<ToolResult> {
  let session: ToolSession | undefined;
  let result: ToolResult;
  try {
    result = await body((s) => {
      session = s;
    });
  } catch (error) {
    result = errorResult(tool, action(), error, session);
  }
  if (result.text.length <= budget) return result;
  const text = fitText(result.text, budget);
  if (result.data.error) result.data.error.message = fitText(result.data.error.message, budget);
  return { ...result, text };
}
