import { type ActionContext, sessionReply, tailStartLine } from './action-context.js';
import { type GatherEnd, gather } from './gather.js';
import { MAX_WAIT_MS } from './options.js';
import { invalid } from './params.js';
import { compilePattern, type TextPattern } from './pattern.js';
import { droppedNote } from './read-actions.js';
import type { ToolResult, WaitOutcomeKind } from './types.js';

/** How long wait_for waits when the call does not say. */
export const DEFAULT_WAIT_FOR_MS = 30_000;

/** Longest pattern repeated back whole. */
const MAX_SHOWN_PATTERN = 80;

/** Longest matched text quoted back. */
const MAX_QUOTED_MATCH = 200;

const OUTCOMES: Record<GatherEnd, WaitOutcomeKind> = {
  matched: 'matched',
  quiet: 'quiet',
  exit: 'exited',
  timeout: 'timeout',
  aborted: 'cancelled',
  // wait_for never asks gather to settle; a settle would mean the output paused.
  settled: 'quiet',
};

type Target =
  | { kind: 'pattern'; pattern: TextPattern; source: string }
  | { kind: 'idle'; idleMs: number }
  | { kind: 'exit' };

/**
 * wait_for: one call that waits for a pattern in new output, a quiet period, or the exit, so a
 * model does not poll in a loop. "New output" is everything not yet returned by a poll, so a
 * line that arrived just before the call still counts.
 */
export async function waitForAction(ctx: ActionContext): Promise<ToolResult> {
  const target = readTarget(ctx);
  const timeout = ctx.params.integer('timeout', 1, MAX_WAIT_MS) ?? DEFAULT_WAIT_FOR_MS;
  if (target.kind === 'idle' && target.idleMs >= timeout) {
    throw invalid(
      `idle_ms (${target.idleMs}) must be less than timeout (${timeout} ms), or the wait can only time out`,
    );
  }
  const session = ctx.session();
  const got = await gather(session, {
    waitMs: timeout,
    signal: ctx.signal,
    ...(target.kind === 'pattern' ? { pattern: target.pattern } : {}),
    ...(target.kind === 'idle' ? { quietMs: target.idleMs } : {}),
  });
  const body = got.output.text();
  const outcome = OUTCOMES[got.end];
  return sessionReply(ctx, session, {
    body: body === '' ? '(no new output)' : body,
    notes: [
      droppedNote(got.output.droppedBytes + got.output.trimmedBytes),
      verdict(target, got.end, timeout, got.match),
    ],
    firstLine: tailStartLine(session, body),
    data: {
      wait: { outcome, waitedMs: got.waitedMs, ...(got.match !== undefined ? { match: got.match } : {}) },
      droppedBytes: got.output.droppedBytes,
    },
  });
}

function readTarget(ctx: ActionContext): Target {
  const source = ctx.params.string('pattern');
  const idleMs = ctx.params.integer('idle_ms', 1, MAX_WAIT_MS);
  const exit = ctx.params.boolean('exit');
  const given = [source !== undefined, idleMs !== undefined, exit !== undefined].filter(Boolean).length;
  if (given !== 1) {
    throw invalid(
      `wait_for needs exactly one of pattern (a regular expression), idle_ms (a quiet period) or exit: true (got ${
        given === 0 ? 'none' : 'more than one'
      })`,
    );
  }
  if (exit === false)
    throw invalid('exit must be true (wait for the process to end); leave it out otherwise');
  if (idleMs !== undefined) return { kind: 'idle', idleMs };
  if (source === undefined) return { kind: 'exit' };
  if (source === '') throw invalid('pattern must not be empty');
  return { kind: 'pattern', pattern: compilePattern(source), source };
}

function verdict(
  target: Target,
  end: GatherEnd,
  timeout: number,
  match: string | undefined,
): string | undefined {
  const what = target.kind === 'pattern' ? shownPattern(target.source) : '';
  switch (end) {
    case 'matched':
      return `Matched ${what}: ${JSON.stringify(quote(match ?? ''))}.`;
    case 'quiet':
      return target.kind === 'idle' ? `The output was quiet for ${target.idleMs} ms.` : undefined;
    case 'exit':
      return target.kind === 'pattern' ? `The process ended before ${what} appeared.` : undefined;
    case 'aborted':
      return 'Cancelled while waiting.';
    default:
      if (target.kind === 'pattern') return `Timed out after ${timeout} ms: ${what} did not appear.`;
      if (target.kind === 'idle')
        return `Timed out after ${timeout} ms: the output never went quiet for ${target.idleMs} ms.`;
      return `Timed out after ${timeout} ms: the process has not ended.`;
  }
}

function quote(text: string): string {
  return text.length <= MAX_QUOTED_MATCH ? text : `${text.slice(0, MAX_QUOTED_MATCH)}...`;
}

/** The pattern as a verdict repeats it: `/.../`, cut to a prefix and its length when long. */
function shownPattern(source: string): string {
  if (source.length <= MAX_SHOWN_PATTERN) return `/${source}/`;
  return `/${source.slice(0, MAX_SHOWN_PATTERN)}…/ (${source.length.toLocaleString('en-US')} characters)`;
}
