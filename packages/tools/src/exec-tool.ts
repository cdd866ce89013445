import { isProcmuxError } from '@procmux/core-types';
import type { InputWait, ProcessStartRequest } from '@procmux/sessions';
import { endedNote, settleJobs, survivorsNote } from './background-report.js';
import { duration, shownCommand, wiring } from './describe-session.js';
import { execDescription } from './descriptions.js';
import { gatheredBody } from './full-screen-body.js';
import { gather } from './gather.js';
import { guessedInputNote, inputStopNote, watchOneShotInput } from './one-shot-input.js';
import { oneShotInputPlan } from './one-shot-plan.js';
import { DEFAULT_TOOL_OPTIONS, type ResolvedToolOptions } from './options.js';
import { openParams, readParams, requireParams } from './param-spec.js';
import { checkPersistAvailable, persistError, persistedStart, persistNote } from './persist.js';
import { askPerson, newWait, personNote } from './person-input.js';
import { sessionReply } from './reply.js';
import { RESULT_JSON_SCHEMA } from './result-schema.js';
import { guarded } from './results.js';
import { execParameters, execSpec } from './schemas.js';
import type {
  ExecMode,
  ProcessTool,
  ToolResult,
  ToolRunContext,
  ToolSession,
  ToolSessions,
} from './types.js';

// The parameters as the schema the model reads states them (the parser reads no other words).
const EXEC_SPEC = execSpec(DEFAULT_TOOL_OPTIONS);
/** Startup output (a banner, a pause while the program loads, then a prompt) is returned whole. */
export const STARTUP_SETTLE = { quietMs: 400, maxMs: 2_000 };
/**
 * A daemon returns once it has been quiet this long (from its start or its last output): a
 * silent server no longer holds the call for the whole startup wait, and early output still shows.
 */
export const DAEMON_SETTLE_MS = 300;
/** How a daemon's start is gathered (exported for the tests that run it on a fake clock). */
export const DAEMON_STARTUP = { quietMs: DAEMON_SETTLE_MS, settle: STARTUP_SETTLE };

interface ExecRequest {
  command: string;
  mode: ExecMode;
  cwd: string | undefined;
  env: Record<string, string> | undefined;
  timeoutMs: number | undefined;
  noOutputTimeoutMs: number | undefined;
  yieldMs: number | undefined;
  persist: boolean;
}

/** The `exec` tool: starts a command as a one-shot, an interactive session or a daemon. */
export function createExecTool(sessions: ToolSessions, options: ResolvedToolOptions): ProcessTool {
  return {
    name: 'exec',
    description: execDescription(options),
    parameters: execParameters(options),
    outputSchema: RESULT_JSON_SCHEMA,
    run(params: unknown, context: ToolRunContext = {}) {
      let mode: ExecMode | undefined;
      return guarded(
        'exec',
        () => mode,
        options.outputBudget,
        async (setSession) => {
          const request = parseExec(params);
          mode = request.mode;
          if (request.mode === 'one_shot') return oneShot(sessions, options, request, context, setSession);
          return background(sessions, options, request, context, setSession);
        },
      );
    },
  };
}

function parseExec(raw: unknown): ExecRequest {
  const p = openParams(EXEC_SPEC, raw, 'exec');
  // The mode first: it decides which other parameters apply.
  const mode = readParams(EXEC_SPEC, p, ['mode']).mode ?? 'one_shot';
  requireParams(p, ['command']);
  const v = readParams(EXEC_SPEC, p);
  const request: ExecRequest = {
    command: v.command ?? '',
    mode,
    cwd: v.cwd,
    env: v.env,
    timeoutMs: v.timeout_ms,
    noOutputTimeoutMs: v.no_output_timeout_ms,
    yieldMs: v.yield_ms,
    persist: v.persist ?? false,
  };
  if (mode !== 'one_shot')
    p.only(`mode ${mode}`, [
      'command',
      'mode',
      'cwd',
      'env',
      'timeout_ms',
      'no_output_timeout_ms',
      'persist',
    ]);
  else if (request.persist)
    p.only('mode one_shot', [
      'command',
      'mode',
      'cwd',
      'env',
      'timeout_ms',
      'no_output_timeout_ms',
      'yield_ms',
    ]);
  return request;
}

function startRequest(request: ExecRequest, context: ToolRunContext): ProcessStartRequest {
  return {
    command: request.command,
    shell: true,
    ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
    ...(context.owner !== undefined ? { owner: context.owner } : {}),
  };
}

async function oneShot(
  sessions: ToolSessions,
  options: ResolvedToolOptions,
  request: ExecRequest,
  context: ToolRunContext,
  setSession: (session: ToolSession) => void,
): Promise<ToolResult> {
  const timeoutMs = request.timeoutMs ?? options.oneShotTimeoutMs;
  const noOutputTimeoutMs = request.noOutputTimeoutMs ?? options.oneShotNoOutputTimeoutMs;
  // POSIX: stdin is a terminal nobody types into (prompts meant for a terminal show); where
  // the kernel tells (Linux), a command that blocks reading it is stopped and reported,
  // instead of reading end-of-file and carrying on as if the question had been answered.
  const plan = oneShotInputPlan(process.platform);
  const start = (stdin: ProcessStartRequest['stdin']) =>
    sessions.start({
      ...startRequest(request, context),
      env: { ...options.nonInteractiveEnv, ...options.pipeOutputEnv, ...request.env },
      stdin,
      ...(options.reportBackgroundJobs ? { endLeftovers: true } : {}),
      timeoutMs,
      noOutputTimeoutMs,
    });
  const session = await start(plan.stdin).catch((error: unknown) => {
    // No PTY module: stdin on a pipe, as before terminals were given.
    if (plan.stdin === 'terminal' && isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')) {
      return start(plan.fallbackStdin);
    }
    throw error;
  });
  setSession(session);
  const target = { tool: 'exec', action: 'one_shot', budget: options.outputBudget } as const;
  const startedAt = Date.now();
  const waitEnd = waitForEnd(session, request.yieldMs, context.signal);
  let answered: InputWait[] = [];
  const inputWatch = watchOneShotInput(session, plan);
  let ended = await Promise.race([waitEnd, inputWatch.waiting]).finally(() => inputWatch.stop());
  // A hidden prompt (a password) goes to a person where the host can ask one; the command
  // goes on once answered, and each later hidden prompt is asked again.
  while (typeof ended === 'object' && !ended.echo && context.askPerson) {
    const outcome = await askPerson(context.askPerson, session, ended, {
      timeoutMs: timeoutMs - (Date.now() - startedAt),
      signal: context.signal,
      ended: waitEnd,
    });
    if (outcome !== 'answered') {
      // It may have ended meanwhile (its own timeout, a kill): then that is the reply.
      if (!session.live) ended = await waitEnd;
      break;
    }
    answered = [...answered, ended];
    const watching = newWait(session, plan, { at: Date.now(), bytes: session.metadata().totalBytes });
    ended = await Promise.race([waitEnd, watching.waiting]).finally(() => watching.stop());
  }
  if (typeof ended === 'object') {
    await session.kill().catch(() => {});
    const result = await sessionReply(target, session, {
      transcript: { empty: '(no output)' },
      notes: [personNote(answered), inputStopNote(ended)],
      data: {
        backgrounded: false,
        waitingInput: ended,
        ...(answered.length > 0 ? { personAnswered: answered.length } : {}),
      },
      isError: true,
    });
    await session.poll().catch(() => {});
    return result;
  }
  if (ended === 'aborted') {
    await session.kill().catch(() => {});
    return sessionReply(target, session, {
      notes: ['Cancelled: the command was killed before it finished.'],
      isError: true,
    });
  }
  if (ended === 'yielded') {
    const { output } = await gather(session, { waitMs: 0 });
    const note =
      `Still running after ${duration(request.yieldMs ?? 0)}: it goes on in the background as session ${session.id} ` +
      `(its ${timeoutMs} ms timeout and ${noOutputTimeoutMs} ms no-output timeout still apply). ` +
      'Use process action=poll, wait_for or kill with this session_id.';
    return sessionReply(target, session, {
      body: output.text(),
      notes: [note],
      data: { backgrounded: true },
    });
  }
  // Cut from the transcript, never held whole: a 50 MB output's middle is only counted.
  const guessed = inputWatch.guessed();
  const left = await settleJobs(session.metadata().leftovers ?? []);
  const result = await sessionReply(target, session, {
    transcript: { empty: '(no output)' },
    notes: [
      timeoutNote(session, timeoutMs, noOutputTimeoutMs),
      guessed ? guessedInputNote(guessed) : undefined,
      personNote(answered),
      endedNote(left.ended),
      survivorsNote(left.survivors),
    ],
    usage: true,
    data: {
      backgrounded: false,
      ...(answered.length > 0 ? { personAnswered: answered.length } : {}),
      ...(left.ended.length > 0 ? { ended: left.ended } : {}),
      ...(left.survivors.length > 0 ? { survivors: left.survivors } : {}),
    },
  });
  // Mark the output read, so a later poll of this session does not return it again.
  await session.poll().catch(() => {});
  return result;
}

/** Waits for the exit, the yield time, or an abort, whichever comes first. */
async function waitForEnd(
  session: ToolSession,
  yieldMs: number | undefined,
  signal: AbortSignal | undefined,
): Promise<'ended' | 'yielded' | 'aborted'> {
  if (signal?.aborted) return 'aborted';
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const waited = session
      .wait(yieldMs === undefined ? {} : { timeoutMs: yieldMs })
      .then((outcome) => (outcome.state === 'running' || outcome.state === 'starting' ? 'yielded' : 'ended'));
    return await Promise.race([waited, aborted]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

// A daemon whose launcher backgrounds the server and exits (`pg_ctl start`) ends, and the
// server with it: named, its replies say what ended and why, instead of a bare "exited 0".
function daemonLeftovers(options: ResolvedToolOptions): { endLeftovers?: true } {
  return options.reportBackgroundJobs ? { endLeftovers: true } : {};
}

/** Why procmux stopped a one-shot, when it did: a model should change the call, not retry it. */
function timeoutNote(session: ToolSession, timeoutMs: number, noOutputTimeoutMs: number): string | undefined {
  const meta = session.metadata();
  if (meta.state !== 'killed' || meta.endedAt === null) return undefined;
  const ran = meta.endedAt - meta.startedAt;
  if (ran >= timeoutMs) {
    return (
      `procmux stopped it after ${duration(ran)}: it ran past timeout_ms (${timeoutMs} ms). ` +
      'Raise timeout_ms, pass yield_ms to let it go on in the background, or start it as a daemon.'
    );
  }
  if (ran >= noOutputTimeoutMs) {
    return (
      `procmux stopped it: it printed nothing for no_output_timeout_ms (${noOutputTimeoutMs} ms). ` +
      "If it was waiting for input, run it with mode 'session'; if it is slow and quiet, raise no_output_timeout_ms."
    );
  }
  return undefined;
}

async function background(
  sessions: ToolSessions,
  options: ResolvedToolOptions,
  request: ExecRequest,
  context: ToolRunContext,
  setSession: (session: ToolSession) => void,
): Promise<ToolResult> {
  const interactive = request.mode === 'session';
  if (request.persist) checkPersistAvailable(options.persistUnavailable);
  const session = await sessions
    .start({
      ...startRequest(request, context),
      ...(interactive
        ? request.env
          ? { env: request.env }
          : {}
        : { env: { ...options.pipeOutputEnv, ...request.env } }),
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      ...(request.noOutputTimeoutMs !== undefined ? { noOutputTimeoutMs: request.noOutputTimeoutMs } : {}),
      ...(request.persist
        ? persistedStart()
        : interactive
          ? { pty: true, ptyFallback: 'pipe' as const }
          : { stdin: 'open' as const, ...daemonLeftovers(options) }),
    })
    .catch((error: unknown) => {
      throw persistError(error);
    });
  setSession(session);
  const first = await gather(session, {
    waitMs: options.startupWaitMs,
    ...(interactive ? { settle: STARTUP_SETTLE } : DAEMON_STARTUP),
    signal: context.signal,
  });
  const kind = interactive ? 'session' : 'daemon';
  const fallback =
    interactive && session.stdioMode === 'pipe'
      ? '\nNo terminal could be opened, so it runs on pipes: prompts may not show and keys arrive as plain bytes.'
      : '';
  const persisted = request.persist ? `\n${persistNote(kind, session.metadata().backendMetadata)}` : '';
  // Notes on lines of their own: after the command on its line, "Persisted: …" read as part of it.
  const header = `Started ${kind} ${session.id} (${wiring(session)}): ${shownCommand(request.command)}${fallback}${persisted}`;
  const body = await gatheredBody(session, first.output, first.last);
  return sessionReply({ tool: 'exec', action: request.mode, budget: options.outputBudget }, session, {
    header,
    body: body === '' ? `(no output in the first ${duration(first.waitedMs)})` : body,
  });
}
