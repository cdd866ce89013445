import { isProcmuxError, ProcmuxError } from '@procmux/core-types';
import type { ActionContext } from './action-context.js';
import {
  closeStdinAction,
  killAction,
  pasteAction,
  sendKeysAction,
  submitAction,
  writeAction,
} from './control-actions.js';
import { PROCESS_DESCRIPTION } from './descriptions.js';
import { echoBare } from './echo.js';
import { logAction } from './log-action.js';
import type { ResolvedToolOptions } from './options.js';
import { openParams, readParams, requireParams } from './param-spec.js';
import { invalid } from './params.js';
import { listAction, pollAction } from './read-actions.js';
import { recordAction } from './record-action.js';
import { RESULT_JSON_SCHEMA } from './result-schema.js';
import { guarded } from './results.js';
import { PROCESS_PARAMETERS, PROCESS_SPEC } from './schemas.js';
import type {
  ProcessAction,
  ProcessTool,
  ToolResult,
  ToolRunContext,
  ToolSession,
  ToolSessions,
} from './types.js';
import { waitForAction } from './wait-for.js';

type ProcessParamName = keyof typeof PROCESS_SPEC & string;

interface ActionSpec {
  /** Parameters the action takes besides action (and session_id, when it needs a session). */
  params: readonly ProcessParamName[];
  /** Of those, the ones a call must give. */
  required?: readonly ProcessParamName[];
  /** Of those, the ones the action reads itself, with a range of its own (wait_for's timeout). */
  own?: readonly ProcessParamName[];
  needsSession: boolean;
  /** What to do instead when a call gives parameters the action does not take. */
  hint?: (extra: readonly string[]) => string | undefined;
  run(ctx: ActionContext): Promise<ToolResult>;
}

// Models send the line with submit ({text: "print(1)"}): say in one breath how it is done.
const typeThenSubmit = (extra: readonly string[]) =>
  extra.some((name) => name === 'text' || name === 'data' || name === 'input')
    ? 'submit only presses Enter: type the line first with paste {session_id, text}, then submit'
    : undefined;

const ACTIONS: Record<ProcessAction, ActionSpec> = {
  list: { params: [], needsSession: false, run: listAction },
  poll: { params: ['timeout'], needsSession: true, run: pollAction },
  log: { params: ['offset', 'limit'], needsSession: true, run: logAction },
  write: { params: ['data'], required: ['data'], needsSession: true, run: writeAction },
  paste: { params: ['text', 'bracketed'], required: ['text'], needsSession: true, run: pasteAction },
  submit: { params: [], needsSession: true, hint: typeThenSubmit, run: submitAction },
  send_keys: { params: ['keys'], required: ['keys'], needsSession: true, run: sendKeysAction },
  close_stdin: { params: [], needsSession: true, run: closeStdinAction },
  kill: { params: [], needsSession: true, run: killAction },
  wait_for: {
    params: ['pattern', 'fail_pattern', 'input', 'idle_ms', 'exit', 'port', 'timeout'],
    own: ['timeout'],
    needsSession: true,
    run: waitForAction,
  },
  record: { params: ['path'], needsSession: true, run: recordAction },
};

/** The `process` tool: list, read, drive and stop sessions. */
export function createProcessTool(sessions: ToolSessions, options: ResolvedToolOptions): ProcessTool {
  return {
    name: 'process',
    description: PROCESS_DESCRIPTION,
    parameters: PROCESS_PARAMETERS,
    outputSchema: RESULT_JSON_SCHEMA,
    run(raw: unknown, context: ToolRunContext = {}) {
      let action: ProcessAction | undefined;
      return guarded(
        'process',
        () => action,
        options.outputBudget,
        async (setSession) => {
          const params = openParams(PROCESS_SPEC, raw, 'process');
          action = readParams(PROCESS_SPEC, params, ['action']).action;
          if (action === undefined)
            throw invalid('action', `action is required; one of: ${Object.keys(ACTIONS).join(', ')}`, {
              values: Object.keys(ACTIONS),
            });
          const spec = ACTIONS[action];
          params.only(
            `action ${action}`,
            ['action', ...(spec.needsSession ? ['session_id'] : []), ...spec.params],
            spec.hint,
          );
          const sessionId = spec.needsSession
            ? params.string('session_id', { required: true, nonEmpty: true })
            : '';
          requireParams(params, spec.required ?? []);
          const own = spec.own ?? [];
          const values = readParams(
            PROCESS_SPEC,
            params,
            spec.params.filter((name) => !own.includes(name)),
          );
          let session: ToolSession | undefined;
          const ctx: ActionContext = {
            action,
            sessions,
            options,
            params,
            values,
            owner: context.owner,
            signal: context.signal,
            progress: context.onProgress,
            session() {
              session ??= findSession(sessions, sessionId, context.owner);
              setSession(session);
              return session;
            },
          };
          return spec.run(ctx);
        },
      );
    },
  };
}

/** The session, with an unknown id repeated back only as a short prefix and its length. */
function findSession(sessions: ToolSessions, id: string, owner: string | undefined): ToolSession {
  try {
    return sessions.get(id, owner);
  } catch (error) {
    if (!isProcmuxError(error, 'ERR_PROCESS_NOT_FOUND')) throw error;
    throw new ProcmuxError('ERR_PROCESS_NOT_FOUND', `no session with id ${echoBare(id)}`, { cause: error });
  }
}
