// `procmux_terminal`: the tool only the terminal app calls (MCP Apps visibility "app"), through
// the host, to attach to a session, follow its output (a long poll), and type into it after
// taking the same control lease the view takes.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  integerOption,
  invalidOption,
  isProcmuxError,
  knownKeys,
  nonEmptyString,
  oneOf,
} from '@procmux/core-types';
import { lfToCrlf, type ProcessSession } from '@procmux/sessions';
import type { ResourceSessions } from '../resources.js';
import { ControlBoard } from './control-board.js';
import { TERMINAL_APP_URI } from './terminal-resource.js';

export const TERMINAL_TOOL = 'procmux_terminal';

const ACTIONS = ['attach', 'read', 'take', 'input', 'release'] as const;
type Action = (typeof ACTIONS)[number];
/** Longest a read waits for news; the app calls again at once, which also renews its lease. */
const MAX_READ_MS = 20_000;
/** Output one read returns at most (output()'s cap); the app reads again at once when more waits. */
const READ_BYTES = 50 * 1024;
const MAX_INPUT_CHARS = 64 * 1024;

const PARAMS = ['action', 'session_id', 'viewer', 'after', 'timeout', 'data'];

export const TERMINAL_TOOL_DEFINITION: Tool = {
  name: TERMINAL_TOOL,
  title: 'procmux terminal (app)',
  description:
    'Used by the procmux terminal app (ui://procmux/terminal) to show a session live and let a person ' +
    'type after taking control. Models: use the process tool instead.',
  inputSchema: {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: [...ACTIONS],
        description:
          'attach: the screen now and its offset. read: output after `after`, waiting up to `timeout` ms for ' +
          'some. take / release: the keyboard. input: keys typed by the person (needs take).',
      },
      session_id: { type: 'string', description: 'The session (exec mode session) to show.' },
      viewer: {
        type: 'string',
        description: 'A random id of this app instance (1-40 of A-Z a-z 0-9 _ -): who holds control.',
      },
      after: { type: 'integer', minimum: 0, description: 'read: the offset the app has shown up to.' },
      timeout: { type: 'integer', minimum: 0, maximum: MAX_READ_MS, description: 'read: ms to wait.' },
      data: { type: 'string', description: 'input: raw terminal input, as a keyboard sends it.' },
    },
    required: ['action', 'session_id', 'viewer'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      session_id: { type: 'string' },
      state: { type: 'string', description: 'starting, running, exited, killed, ...' },
      live: { type: 'boolean' },
      pipe: { type: 'boolean', description: 'A pipe session (no terminal): output with CR LF.' },
      columns: { type: 'integer' },
      rows: { type: 'integer' },
      control: { type: ['string', 'null'], description: 'Who holds the keyboard instead of the model.' },
      mine: { type: 'boolean', description: 'Whether this viewer holds it.' },
      data: { type: 'string', description: 'attach: the screen as escape sequences; read: output.' },
      offset: { type: 'integer', description: 'attach, read: where the next read starts.' },
      more: { type: 'boolean', description: 'read: more output is waiting; read again at once.' },
      dropped_bytes: { type: 'integer', description: 'read: output the session no longer kept.' },
    },
    required: ['session_id', 'state', 'live', 'pipe', 'columns', 'rows', 'control', 'mine'],
  },
  annotations: { title: 'procmux terminal (app)', readOnlyHint: false, openWorldHint: false },
  _meta: { ui: { resourceUri: TERMINAL_APP_URI, visibility: ['app'] } },
};

/** What every answer says about the session, so the app's bar is never older than its output. */
interface TerminalState {
  session_id: string;
  state: string;
  live: boolean;
  pipe: boolean;
  columns: number;
  rows: number;
  /** Who holds the keyboard instead of the model, or null. */
  control: string | null;
  /** Whether this viewer holds it. */
  mine: boolean;
}

export interface TerminalTool {
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  /** Releases every lease the app holds through this server. */
  dispose(): void;
}

/** The app tool over a registry, for the sessions `owner` may see. */
export function createTerminalTool(
  sessions: ResourceSessions,
  owner: string | undefined,
  board = new ControlBoard(),
): TerminalTool {
  return {
    async call(args, signal) {
      try {
        knownKeys('arguments', args, PARAMS);
        const action = oneOf('action', args.action, ACTIONS, { required: true });
        const viewer = nonEmptyString('viewer', args.viewer, { required: true, maxChars: 40 });
        if (!/^[\w-]+$/.test(viewer))
          throw invalidOption('viewer', '1-40 of A-Z a-z 0-9 _ -', { value: viewer });
        const id = nonEmptyString('session_id', args.session_id, { required: true, maxChars: 200 });
        const session = sessions.get(id, owner);
        board.renew(session, viewer);
        const fields = await run(action, session, viewer, args, signal);
        const state = describe(session, board, viewer);
        const structured = { ...state, ...fields };
        return {
          content: [
            {
              type: 'text',
              text: `${session.id}: ${state.state}${state.control ? `, ${state.control} has control` : ''}`,
            },
          ],
          structuredContent: structured,
        };
      } catch (error) {
        if (!isProcmuxError(error)) throw error;
        return { content: [{ type: 'text', text: `${error.code}: ${error.message}` }], isError: true };
      }
    },
    dispose: () => board.dispose(),
  };

  async function run(
    action: Action,
    session: ProcessSession,
    viewer: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const pipe = session.stdioMode === 'pipe';
    if (action === 'attach') {
      const snap = await session.snapshot();
      return { data: pipe ? lfToCrlf(snap.data) : snap.data, offset: snap.offset };
    }
    if (action === 'read') {
      const after = integerOption('after', args.after, {
        min: 0,
        max: Number.MAX_SAFE_INTEGER,
        required: true,
      });
      const timeout = integerOption('timeout', args.timeout, { min: 0, max: MAX_READ_MS, default: 10_000 });
      return read(session, after, timeout, signal);
    }
    if (action === 'take') await board.take(session, viewer);
    else if (action === 'release') board.release(session.id, viewer);
    else {
      const data = nonEmptyString('data', args.data, {
        required: true,
        maxChars: MAX_INPUT_CHARS,
        secret: true,
      });
      await board.write(session, viewer, data);
    }
    return {};
  }
}

/** Output after `after`; waits (up to `timeoutMs`) for some, or for a change of state or control. */
async function read(
  session: ProcessSession,
  after: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  let page = await session.output({ cursor: after, maxBytes: READ_BYTES });
  if (page.data === '' && session.live && timeoutMs > 0 && !signal.aborted) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const stop = session.watch((event) => {
        if (event.type === 'input' || (event.type === 'output' && event.offset <= after)) return;
        done();
      });
      signal.addEventListener('abort', done);
    });
    page = await session.output({ cursor: after, maxBytes: READ_BYTES });
  }
  const data = session.stdioMode === 'pipe' ? lfToCrlf(page.data) : page.data;
  return { data, offset: page.cursor, more: !page.eof, dropped_bytes: page.droppedBytes };
}

function describe(session: ProcessSession, board: ControlBoard, viewer: string): TerminalState {
  const size = session.terminalSize;
  return {
    session_id: session.id,
    state: session.state,
    live: session.live,
    pipe: session.stdioMode === 'pipe',
    columns: size?.columns ?? 80,
    rows: size?.rows ?? 24,
    control: session.humanControl?.holder ?? null,
    mine: board.mine(session, viewer),
  };
}
