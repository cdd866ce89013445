import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const transport = new StdioClientTransport({ command: 'node', args: ['/work/main/packages/mcp/dist/cli.js', 'mcp', '--cwd', '/tmp/prof/ws'], stderr: 'ignore' });
const client = new Client({ name: 'drive', version: '1' });
await client.connect(transport);
const call = async (name, args) => { const r = await client.callTool({ name, arguments: args }); console.log(`--- ${name} ${JSON.stringify(args)}\n${r.content.map((c) => c.text).join('\n')}`); return r; };
const steps = JSON.parse(process.argv[2]);
let id;
for (const [name, args] of steps) {
  if (name === "sleep") { await new Promise((r) => setTimeout(r, args)); continue; }
  const a = { ...args }; if (a.session_id === "$") a.session_id = id;
  const r = await call(name, a);
  id ??= r.structuredContent?.session?.id;
}
await client.close();
