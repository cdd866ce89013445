// Sessions as MCP resources: procmux://session/{id}/log (the transcript, last page by default)
// and procmux://session/{id}/screen (a terminal session's rendered screen). A subscription
// hears notifications/resources/updated on new output (at most one per 100 ms per resource)
// and when the session ends: how a client waits without polling.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isProcmuxError, type ProcessEvent } from '@procmux/core-types';
import type { ProcessSession } from '@procmux/sessions';
import { echo } from '@procmux/tools';
import { readTerminalApp, TERMINAL_APP_RESOURCE, TERMINAL_APP_URI } from './app/terminal-resource.js';

/** The parts of a session registry the resources use. */
export interface ResourceSessions {
  get(id: string, owner?: string): ProcessSession;
  list(owner?: string): ProcessSession[];
  /**
   * Session events (a host's onEvent), so clients hear resources/list_changed when a session
   * starts or ends; without it the list is only read on request.
   */
  onSessionEvent?(listener: (event: ProcessEvent) => void): () => void;
}

/** Events that add a session to resources/list or take one off it. */
const LIST_EVENTS: ReadonlySet<ProcessEvent['type']> = new Set([
  'process_started',
  'process_exited',
  'process_killed',
  'process_released',
  'process_expired',
  'process_unknown',
]);

/** Notifications of one resource are this far apart at least; the first goes at once. */
export const UPDATE_EVERY_MS = 100;
/** Lines a log read returns without `?limit=`. */
const DEFAULT_LOG_LINES = 200;

const URI = /^procmux:\/\/session\/([^/?#]+)\/(log|screen)(?:\?(.*))?$/;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'procmux://session/{session_id}/log',
    name: 'session-log',
    title: 'Session output',
    description:
      'The output of a session as lines: the last 200 by default; ?offset=N&limit=M for a page (as process action=log).',
    mimeType: 'text/plain',
  },
  {
    uriTemplate: 'procmux://session/{session_id}/screen',
    name: 'session-screen',
    title: 'Session screen',
    description: 'The rendered screen of a terminal session (exec mode session), as text.',
    mimeType: 'text/plain',
  },
];

/** One client's subscriptions; dispose() drops every watcher. */
export interface ResourceServing {
  dispose(): void;
}

/**
 * Serves the session resources on `server` for the sessions `owner` may see. Subscriptions
 * watch their session and end with it (after the last notification) or on dispose().
 */
export function serveSessionResources(
  server: Server,
  sessions: ResourceSessions,
  owner: string | undefined,
): ResourceServing {
  const subscriptions = new Map<string, Subscription>();
  const stopListening = sessions.onSessionEvent?.((event) => {
    // A closed server (an HTTP client gone) stops listening at the next event.
    if (!server.transport) return stopListening?.();
    if (event.owner === owner && LIST_EVENTS.has(event.type)) {
      void server.sendResourceListChanged().catch(() => {});
    }
  });
  const find = (uri: string) => {
    const match = URI.exec(uri);
    if (!match) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown resource ${echo(uri)}; this server has procmux://session/{session_id}/log and /screen, and ${TERMINAL_APP_URI}`,
      );
    }
    const id = decodeURIComponent(match[1]!);
    try {
      return { session: sessions.get(id, owner), kind: match[2] as 'log' | 'screen', query: match[3] };
    } catch (error) {
      if (isProcmuxError(error, 'ERR_PROCESS_NOT_FOUND') || isProcmuxError(error, 'ERR_PROCESS_OWNERSHIP')) {
        // -32002: resource not found, as the spec names it.
        throw new McpError(-32002, `no session with id ${echo(id)}`);
      }
      throw error;
    }
  };

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      TERMINAL_APP_RESOURCE,
      ...sessions
        .list(owner)
        .filter((s) => s.live)
        .flatMap((s): Resource[] => [
          {
            uri: `procmux://session/${s.id}/log`,
            name: `${s.id} log`,
            description: `Output of ${s.command}`,
            mimeType: 'text/plain',
          },
          ...(s.emulated
            ? [
                {
                  uri: `procmux://session/${s.id}/screen`,
                  name: `${s.id} screen`,
                  description: `Screen of ${s.command}`,
                  mimeType: 'text/plain',
                },
              ]
            : []),
        ]),
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri === TERMINAL_APP_URI) return { contents: [await readTerminalApp()] };
    const { session, kind, query } = find(uri);
    if (kind === 'screen') {
      if (!session.emulated) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `${session.id} runs on pipes and has no screen; read procmux://session/${session.id}/log`,
        );
      }
      return { contents: [{ uri, mimeType: 'text/plain', text: await session.screen() }] };
    }
    const page = await session.log(logWindow(query));
    return { contents: [{ uri, mimeType: 'text/plain', text: page.text }] };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    const { session } = find(uri);
    if (!subscriptions.has(uri)) {
      subscriptions.set(
        uri,
        new Subscription(session, () => void server.sendResourceUpdated({ uri }).catch(() => {})),
      );
    }
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.get(request.params.uri)?.dispose();
    subscriptions.delete(request.params.uri);
    return {};
  });
  return {
    dispose() {
      stopListening?.();
      for (const subscription of subscriptions.values()) subscription.dispose();
      subscriptions.clear();
    },
  };
}

/** `?offset=N&limit=M` of a log URI; anything else is refused, never ignored. */
function logWindow(query: string | undefined): { offset?: number; limit: number } {
  const params = new URLSearchParams(query ?? '');
  const window: { offset?: number; limit: number } = { limit: DEFAULT_LOG_LINES };
  for (const [key, value] of params) {
    if ((key !== 'offset' && key !== 'limit') || !/^\d+$/.test(value)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `a log URI takes ?offset=N&limit=M (whole numbers; got ${echo(`${key}=${value}`)})`,
      );
    }
    window[key] = Number(value);
  }
  return window;
}

/** One subscribed resource: output and the end notify, coalesced to one per UPDATE_EVERY_MS. */
class Subscription {
  #last = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #unwatch: () => void = () => {};

  constructor(
    session: ProcessSession,
    private readonly notify: () => void,
  ) {
    this.#unwatch = session.watch((event) => {
      if (event.type === 'output') this.#changed();
      else if (event.type === 'state' && event.state !== 'starting' && event.state !== 'running') {
        // The end: one last notification (pending or not) and nothing more to watch.
        if (this.#timer) clearTimeout(this.#timer);
        this.#send();
        this.#unwatch();
      }
    });
  }

  #changed(): void {
    if (this.#timer) return;
    const wait = this.#last + UPDATE_EVERY_MS - performance.now();
    if (wait <= 0) this.#send();
    else this.#timer = setTimeout(() => this.#send(), wait);
  }

  #send(): void {
    this.#timer = undefined;
    this.#last = performance.now();
    this.notify();
  }

  dispose(): void {
    this.#unwatch();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
