import { ProcmuxError } from '@procmux/core-types';
import type { PollResult } from '@procmux/sessions';
import { type ActionContext, sessionReply, tailStartLine } from './action-context.js';
import { type EarlierMatch, earlierMatch } from './earlier-match.js';
import { gatheredBody } from './full-screen-body.js';
import { type Found, OutputGatherer } from './gather.js';
import { invalid } from './params.js';
import { compilePattern, type TextPattern } from './pattern.js';
import { type PortProbe, portProbe } from './port-probe.js';
import { droppedNote } from './read-actions.js';
import { DEFAULT_WAIT_FOR_MS, MAX_WAIT_FOR_MS } from './schemas.js';
import { screenMatch } from './screen-match.js';
import { expectedEcho } from './typed-echo.js';
import type { ToolResult, WaitOutcomeKind } from './types.js';

/** Progress is reported at least this often while waiting. */
export const PROGRESS_EVERY_MS = 5_000;
/** Conditions the session cannot wake a poll for (a port, a cancel) are checked this often. */
const TICK_MS = 250;

const MAX_SHOWN_PATTERN = 80;
const MAX_QUOTED_MATCH = 200;

interface Conditions {
  pattern?: { pattern: TextPattern; source: string };
  fail?: { pattern: TextPattern; source: string };
  input: boolean;
  exit: boolean;
  idleMs?: number;
  port?: number;
  /** Where the port is looked for (set with `port`). */
  probe?: PortProbe;
}

/** Which condition ended the wait. */
export type WaitFired =
  | 'pattern'
  | 'fail_pattern'
  | 'input'
  | 'exit'
  | 'idle'
  | 'port'
  | 'timeout'
  | 'cancelled';

const OUTCOME: Record<WaitFired, WaitOutcomeKind> = {
  pattern: 'matched',
  fail_pattern: 'failed',
  input: 'input',
  exit: 'exited',
  idle: 'quiet',
  port: 'port',
  timeout: 'timeout',
  cancelled: 'cancelled',
};

/**
 * wait_for: one call that waits for any of several conditions (a pattern in new output, a
 * failure pattern, the program waiting for input, the exit, a quiet period, a loopback port
 * accepting connections) and says which fired, so a model does not poll in a loop. Patterns
 * match whole lines of output not yet returned by a poll, and the line the output stands on
 * (the cursor's line on a terminal, the unfinished last line on pipes) whole, even the part an
 * earlier reply showed: waiting for a prompt already on screen returns at once. The terminal's
 * echo of a line the tools typed is not matched (typed-echo.ts). A full-screen
 * program's screen counts as it is now (it redraws in place; see screen-match.ts).
 */
export async function waitForAction(ctx: ActionContext): Promise<ToolResult> {
  const c = readConditions(ctx);
  const timeout = ctx.params.integer('timeout', 1, MAX_WAIT_FOR_MS) ?? DEFAULT_WAIT_FOR_MS;
  if (c.idleMs !== undefined && c.idleMs >= timeout) {
    throw invalid(
      'idle_ms',
      `idle_ms (${c.idleMs}) must be less than timeout (${timeout} ms), or the wait can only time out`,
    );
  }
  const session = ctx.session();
  if (c.port !== undefined) c.probe = portProbe(session);
  const echo = expectedEcho(session);
  const output = new OutputGatherer(echo);
  const failOutput = new OutputGatherer(echo);
  const start = Date.now();
  const deadline = start + timeout;
  let lastOutputAt = start;
  let lastProgress = start;
  let found: Found | undefined;
  const stopInput = c.input ? session.watchInput?.() : undefined;
  // A failure pattern is looked for first: output showing both must not read as a success.
  const patternHit = async (): Promise<WaitFired | undefined> => {
    found = c.fail ? await failOutput.find(c.fail.pattern) : undefined;
    if (found !== undefined) return 'fail_pattern';
    found = c.pattern ? await output.find(c.pattern.pattern) : undefined;
    return found !== undefined ? 'pattern' : undefined;
  };
  const screenHit = async (): Promise<WaitFired | undefined> => {
    found = c.fail ? await screenMatch(session, c.fail.pattern) : undefined;
    if (found !== undefined) return 'fail_pattern';
    found = c.pattern ? await screenMatch(session, c.pattern.pattern) : undefined;
    return found !== undefined ? 'pattern' : undefined;
  };
  let fired: WaitFired | undefined;
  let lastPoll: PollResult | undefined;
  try {
    // Patterns match whole lines: the first poll takes what is pending and tells where the
    // current line began, so a prompt an earlier reply showed (or began) counts at once.
    const first = await session.poll();
    lastPoll = first;
    if (output.add(first)) lastOutputAt = Date.now();
    failOutput.add(first);
    output.carryLine(first);
    failOutput.carryLine(first);
    fired = await patternHit();
    // A full-screen program's screen counts as it is now, whichever reply showed it.
    if (fired === undefined && first.fullScreen === true) fired = await screenHit();
    while (fired === undefined) {
      // Checked before each poll too: the program may already wait (a poll wakes only on a change).
      if (c.input && session.metadata().input) {
        await session.poll().then((last) => {
          lastPoll = last;
          output.add(last);
        });
        fired = 'input';
        break;
      }
      let now = Date.now();
      let slice = deadline - now;
      if (c.idleMs !== undefined) slice = Math.min(slice, lastOutputAt + c.idleMs - now);
      if (c.port !== undefined || c.input || ctx.signal || ctx.progress) slice = Math.min(slice, TICK_MS);
      const last = await session.poll({ timeoutMs: Math.max(0, Math.floor(slice)) });
      lastPoll = last;
      now = Date.now();
      if (output.add(last)) lastOutputAt = now;
      failOutput.add(last);
      // Blanks alone count too: a prompt's trailing blank may come in a read of its own.
      if ((c.pattern && output.unsearched) || (c.fail && failOutput.unsearched)) {
        fired = await patternHit();
        if (fired !== undefined) break;
      }
      if (last.state !== 'running' && last.state !== 'starting') {
        fired = 'exit';
        break;
      }
      if (c.port !== undefined && (await c.probe!.open(c.port))) {
        fired = 'port';
        break;
      }
      if (ctx.signal?.aborted) {
        fired = 'cancelled';
        break;
      }
      now = Date.now();
      if (c.idleMs !== undefined && now - lastOutputAt >= c.idleMs) {
        fired = 'idle';
        break;
      }
      if (now >= deadline) {
        fired = 'timeout';
        break;
      }
      if (ctx.progress && now - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = now;
        ctx.progress({
          waitedMs: now - start,
          totalMs: timeout,
          message: `waiting (${Math.round((now - start) / 1000)} s)`,
        });
      }
    }
  } finally {
    stopInput?.();
  }
  const searched = output.searched;
  echo?.consume(searched);
  const waitedMs = Date.now() - start;
  const missed = c.pattern !== undefined && (fired === 'timeout' || fired === 'exit');
  // Only the echo of what was typed matched: say so, not that an earlier reply showed it.
  const inEcho = missed && echo !== undefined && c.pattern!.pattern.find(searched) !== undefined;
  const earlier = missed && !inEcho ? await earlierMatch(session, c.pattern!.pattern) : undefined;
  // A pattern written for another prompt (`\$ $` at root's `#`) waits out its whole timeout.
  const atPrompt =
    fired === 'timeout' && c.pattern && !c.input && !earlier && !inEcho && session.metadata().input != null;
  const body = lastPoll ? await gatheredBody(session, output, lastPoll) : output.text();
  return sessionReply(ctx, session, {
    body: body === '' ? '(no new output)' : body,
    notes: [
      droppedNote(output.droppedBytes + output.trimmedBytes),
      verdict(c, fired, timeout, found),
      earlier && earlierNote(c.pattern!.source, earlier),
      inEcho ? echoNote(c.pattern!.source) : undefined,
      atPrompt ? promptNote(c.pattern!.source) : undefined,
    ],
    firstLine: tailStartLine(session, body),
    data: {
      wait: {
        outcome: OUTCOME[fired],
        fired,
        waitedMs,
        ...(found !== undefined ? { match: found.text } : {}),
        ...(found?.shown ? { alreadyShown: true as const } : {}),
      },
      droppedBytes: output.droppedBytes,
    },
  });
}

function readConditions(ctx: ActionContext): Conditions {
  const { pattern: source, fail_pattern: failSource, idle_ms: idleMs, exit, input, port } = ctx.values;
  const c: Conditions = { input: input === true, exit: exit === true };
  if (source !== undefined) c.pattern = { pattern: checked('pattern', source), source };
  if (failSource !== undefined) c.fail = { pattern: checked('fail_pattern', failSource), source: failSource };
  if (idleMs !== undefined) c.idleMs = idleMs;
  if (port !== undefined) {
    const unavailable = ctx.options.portsUnavailable;
    if (unavailable !== undefined) {
      throw new ProcmuxError(
        'ERR_PROCESS_UNSUPPORTED',
        `wait_for port is not available here: ${unavailable}. Wait for the line the server prints when it is ready (pattern) instead`,
      );
    }
    c.port = port;
  }
  if (!c.pattern && !c.fail && !c.input && !c.exit && c.idleMs === undefined && c.port === undefined) {
    throw invalid(
      'pattern, fail_pattern, input, exit, idle_ms, port',
      'wait_for needs at least one of pattern (a regular expression), fail_pattern, input: true, exit: true, idle_ms (a quiet period) or port (a loopback TCP port) (got none)',
    );
  }
  return c;
}

function checked(name: string, source: string): TextPattern {
  if (source === '') throw invalid(name, `${name} must not be empty`);
  return compilePattern(source);
}

function verdict(
  c: Conditions,
  fired: WaitFired,
  timeout: number,
  found: Found | undefined,
): string | undefined {
  const what = c.pattern ? shownPattern(c.pattern.source) : '';
  // A match an earlier reply already showed is not quoted again: the model has read it.
  const matched = found?.onScreen
    ? ' on the screen (already shown)'
    : found?.shown
      ? ' on the current line (already shown)'
      : `: ${JSON.stringify(quote(found?.text ?? ''))}`;
  switch (fired) {
    case 'pattern':
      return `Matched ${what}${matched}.`;
    case 'fail_pattern':
      return `Stopped early: the failure pattern ${shownPattern(c.fail!.source)} matched${matched}.`;
    case 'input':
      return 'The program is waiting for input.';
    case 'port':
      return c.probe?.where === 'sandbox'
        ? `Port ${c.port} is listening inside the session's sandbox (its own network): its own processes can connect to it; other sessions and this host cannot.`
        : `Port ${c.port} on loopback accepts connections.`;
    case 'idle':
      return `The output was quiet for ${c.idleMs} ms.`;
    case 'cancelled':
      return 'Cancelled while waiting.';
    case 'exit': {
      if (c.exit) return undefined;
      const awaited = [
        c.pattern && `${what} appeared`,
        c.input && 'it waited for input',
        c.port !== undefined && `port ${c.port} accepted connections`,
      ].filter((w): w is string => typeof w === 'string');
      return awaited.length === 0 ? undefined : `The process ended before ${awaited.join(' or ')}.`;
    }
    case 'timeout': {
      const missed = [
        c.pattern && `${what} did not appear`,
        c.input && 'the program did not wait for input',
        c.exit && 'the process has not ended',
        c.idleMs !== undefined && `the output never went quiet for ${c.idleMs} ms`,
        c.port !== undefined &&
          (c.probe?.where === 'sandbox'
            ? `port ${c.port} was not listening inside the session's sandbox (its own network)`
            : `port ${c.port} did not accept connections`),
        c.fail && `${shownPattern(c.fail.source)} did not appear either`,
      ].filter((w): w is string => typeof w === 'string');
      return `Timed out after ${timeout} ms: ${missed.join('; ')}.`;
    }
  }
}

function earlierNote(source: string, earlier: EarlierMatch): string {
  return (
    `${shownPattern(source)} matches line ${earlier.line.toLocaleString('en-US')} of the log, ` +
    `${JSON.stringify(quote(earlier.text))}, which an earlier reply returned: ` +
    'wait_for matches only output no earlier call returned.'
  );
}

function echoNote(source: string): string {
  return (
    `${shownPattern(source)} matched only the terminal's echo of the line typed, ` +
    "which is not the program's output."
  );
}

function promptNote(source: string): string {
  return (
    `It waits for input now, at a line ${shownPattern(source)} does not match: ` +
    'wait_for input: true returns once it waits, whatever its prompt.'
  );
}

function quote(text: string): string {
  return text.length <= MAX_QUOTED_MATCH ? text : `${text.slice(0, MAX_QUOTED_MATCH)}...`;
}

/** The pattern as a verdict repeats it: `/.../`, cut to a prefix and its length when long. */
function shownPattern(source: string): string {
  if (source.length <= MAX_SHOWN_PATTERN) return `/${source}/`;
  return `/${source.slice(0, MAX_SHOWN_PATTERN)}…/ (${source.length.toLocaleString('en-US')} characters)`;
}
