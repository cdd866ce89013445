// Builds dist/app/terminal.html, the terminal MCP App: one self-contained page (xterm.js, its
// CSS and ext-apps' App class inlined) because hosts render it in a sandboxed frame that may
// fetch nothing. Run by `pnpm build` after tsc.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const xtermCss = readFileSync(
  join(dirname(require.resolve('@xterm/xterm/package.json')), 'css', 'xterm.css'),
  'utf8',
);
const appCss = readFileSync(join(root, 'app', 'terminal.css'), 'utf8');

const bundle = await rolldown({
  input: join(root, 'app', 'terminal.js'),
  platform: 'browser',
  logLevel: 'warn',
});
const { output } = await bundle.generate({ format: 'iife', minify: true });
await bundle.close();
// Inline, a "</script" in the code would end the element early.
const js = output[0].code.replace(/<\/(script)/gi, '<\\/$1');

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>procmux terminal</title>
<style>${xtermCss}
${appCss}</style>
</head>
<body>
<div id="bar"><span id="title">procmux</span><span id="mode"></span><button id="take" disabled>Take control</button><button id="release" hidden>Release</button></div>
<div id="notice" role="status"></div>
<div id="terminal"></div>
<script>${js}</script>
</body>
</html>
`;
mkdirSync(join(root, 'dist', 'app'), { recursive: true });
writeFileSync(join(root, 'dist', 'app', 'terminal.html'), html);
console.log(`dist/app/terminal.html: ${html.length} bytes`);
