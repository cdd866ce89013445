// A model's side of `procmux mcp` for the task bench: the built CLI and the SDK client over
// stdio, counting every call and the bytes of text each reply gives the model to read.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { NotBuiltError } from '../../load.js';
import { benchEnv, track, untrack } from '../../processes.js';

/** One tool call as the model saw it. */
export interface Reply {
  text: string;
  isError: boolean;
  data: Record<string, unknown>;
}

/** A server and the running count of what the task cost. */
export interface TaskClient {
  call(tool: 'exec' | 'process', args: Record<string, unknown>): Promise<Reply>;
  /** Bytes of each reply's text, in call order. */
  readonly replies: number[];
  close(): Promise<void>;
}

/** `--view 0` and a client declaring URL elicitation, whose "person" is `person(url)`. */
export interface TaskClientOptions {
  person?: (url: string) => Promise<void>;
}

export async function startTaskClient(
  cwd: string,
  stateDir: string,
  options: TaskClientOptions = {},
): Promise<TaskClient> {
  const require = createRequire(import.meta.url);
  let cli: string;
  try {
    cli = join(dirname(require.resolve('@procmux/mcp/package.json')), 'dist', 'cli.js');
    readFileSync(cli);
  } catch {
    throw new NotBuiltError('@procmux/mcp has no dist/cli.js; run pnpm build');
  }
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--cwd', cwd, '--state-dir', stateDir, ...(options.person ? ['--view', '0'] : [])],
    env: benchEnv(),
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'procmux-task-bench', version: '1.0.0' },
    { capabilities: options.person ? { elicitation: { url: {} } } : {} },
  );
  const person = options.person;
  if (person) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      if (req.params.mode !== 'url') return { action: 'decline' as const };
      void person(req.params.url).catch(() => {});
      return { action: 'accept' as const };
    });
  }
  await client.connect(transport);
  const pid = transport.pid!;
  track(pid);
  const replies: number[] = [];
  return {
    replies,
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 300_000 });
      const content = result.content as { type: string; text?: string }[];
      const text = content.map((c) => c.text ?? '').join('');
      replies.push(Buffer.byteLength(text));
      return {
        text,
        isError: result.isError === true,
        data: (result.structuredContent ?? {}) as Record<string, unknown>,
      };
    },
    async close() {
      await client.close();
      untrack(pid);
    },
  };
}

/** A scripted person: posts `secret` to the one-time page, as its form does on Enter. */
export function postSecret(url: string, secret: string): Promise<void> {
  const u = new URL(url);
  const body = new URLSearchParams({ secret }).toString();
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: u.origin },
    });
    req.on('response', (res) => {
      res.resume();
      if (res.statusCode === 200) resolve();
      else reject(new Error(`the secret page answered ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The session id of a reply. */
export function sessionOf(reply: Reply): string {
  const id = (reply.data.session as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`no session in the reply:\n${reply.text.slice(0, 500)}`);
  return id;
}
