// A minimal MCP Apps host page for tests: ext-apps' AppBridge (bundled for the browser here)
// talking over postMessage to the app in a sandboxed srcdoc iframe, as hosts render it. The
// page forwards the app's tool calls to `window.mcpCallTool`, which a test exposes (playwright
// exposeFunction) and answers with a real MCP client.
import { createRequire } from 'node:module';
import { rolldown } from 'rolldown';

/** The host page's HTML: the bridge bundle and `window.startHost(appHtml, toolInput, toolResult)`. */
export async function appHostPage(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-bridge');
  const bundle = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'iife', name: 'McpAppsHost' });
  await bundle.close();
  const bridge = output[0].code.replace(/<\/(script)/gi, '<\\/$1');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>test host</title></head>
<body style="margin:0">
<iframe id="app" sandbox="allow-scripts" style="width:1100px;height:640px;border:0"></iframe>
<script>${bridge}</script>
<script>
window.startHost = async (appHtml, toolInput, toolResult) => {
  const { AppBridge, PostMessageTransport } = McpAppsHost;
  const iframe = document.getElementById('app');
  const bridge = new AppBridge(
    null,
    { name: 'procmux-test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {} },
  );
  bridge.oncalltool = (params) => window.mcpCallTool(params);
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  // Listen before the app loads: it says hello as soon as its script runs.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = appHtml;
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
  window.bridge = bridge;
};
</script>
</body></html>`;
}
