import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { echo, type ProcessTool, type ProcessTools, type ToolProgress } from '@procmux/tools';
import { TERMINAL_APP_URI } from './app/terminal-resource.js';
import { createTerminalTool, TERMINAL_TOOL, TERMINAL_TOOL_DEFINITION } from './app/terminal-tool.js';
import { type SandboxFacts, serverInstructions } from './instructions.js';
import { acceptsUrlElicitation, personAsker, type SecretPageHost } from './person-elicitation.js';
import { type ResourceSessions, serveSessionResources } from './resources.js';
import { packageVersion } from './version.js';

/**
 * Key under a tool result's `_meta` where hosts found the structured result before it was
 * `structuredContent` (the same object); kept until the next major release.
 */
export const RESULT_META_KEY = 'procmux/result';

const ANNOTATIONS: Record<ProcessTool['name'], Tool['annotations']> = {
  exec: { title: 'Run a command', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  process: {
    title: 'Watch and drive a process',
    readOnlyHint: false,
    destructiveHint: true,
    openWorldHint: true,
  },
};

export interface ProcmuxServerOptions {
  /** Serve the sessions as resources too (procmux://session/{id}/log and /screen). */
  sessions?: ResourceSessions;
  /** The client's owner key: its calls start sessions for it, and only its sessions are visible. */
  owner?: string;
  /**
   * The view's one-time pages (`--view`): a one_shot's hidden prompt (a password) is handed to
   * a person through URL-mode elicitation when the client declared `elicitation.url`.
   */
  secretPages?: SecretPageHost;
  /** What every session runs inside (`--sandbox`): said in the instructions a model gets. */
  sandbox?: SandboxFacts;
}

/**
 * An MCP server exposing the procmux tools (`exec`, `process`) with their own JSON Schemas.
 * Each call's text is the tool result's text; `isError` is passed through; the structured
 * result is `structuredContent`, valid against the tool's `outputSchema` (and, deprecated,
 * under `_meta["procmux/result"]`). A cancelled request
 * aborts the call (a one-shot command still running is killed).
 *
 * @example
 * const server = createProcmuxServer(createProcessTools(sessions));
 * await server.connect(new StdioServerTransport());
 */
export function createProcmuxServer(tools: ProcessTools, options: ProcmuxServerOptions = {}): Server {
  const byName = new Map<string, ProcessTool>([tools.exec, tools.process].map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: 'procmux', version: packageVersion() },
    {
      capabilities: {
        tools: {},
        ...(options.sessions
          ? { resources: { subscribe: true, listChanged: options.sessions.onSessionEvent !== undefined } }
          : {}),
      },
      instructions: serverInstructions(options.sandbox),
    },
  );
  if (options.sessions) serveSessionResources(server, options.sessions, options.owner);
  // The terminal app (an MCP App) needs the session handles, so it comes with the resources.
  const terminal = options.sessions && createTerminalTool(options.sessions, options.owner);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...[...byName.values()].map(
        (tool): Tool => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.parameters as Tool['inputSchema'],
          outputSchema: tool.outputSchema as Tool['outputSchema'],
          annotations: ANNOTATIONS[tool.name],
          // MCP Apps: a host that renders apps shows a session's terminal beside the result.
          ...(terminal ? { _meta: { ui: { resourceUri: TERMINAL_APP_URI } } } : {}),
        }),
      ),
      ...(terminal ? [TERMINAL_TOOL_DEFINITION] : []),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (terminal && request.params.name === TERMINAL_TOOL) {
      return terminal.call(request.params.arguments ?? {}, extra.signal);
    }
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${echo(request.params.name)}; this server has ${[...byName.keys(), ...(terminal ? [TERMINAL_TOOL] : [])].join(', ')}`,
      );
    }
    const progressToken = request.params._meta?.progressToken;
    const pages = options.secretPages;
    const result = await tool.run(request.params.arguments ?? {}, {
      signal: extra.signal,
      ...(pages && acceptsUrlElicitation(server)
        ? { askPerson: personAsker(server, pages, extra.requestId) }
        : {}),
      ...(options.owner !== undefined ? { owner: options.owner } : {}),
      // A client that asked for progress hears from long waits, so its timeout can reset on it.
      ...(progressToken !== undefined
        ? {
            onProgress: (p: ToolProgress) => {
              void extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken, progress: p.waitedMs, total: p.totalMs, message: p.message },
                })
                .catch(() => {});
            },
          }
        : {}),
    });
    // Fields left undefined are dropped, as the output schema has them optional.
    const structured = JSON.parse(JSON.stringify(result.data)) as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: result.text }],
      structuredContent: structured,
      isError: result.isError,
      _meta: { [RESULT_META_KEY]: structured },
    };
  });
  return server;
}
