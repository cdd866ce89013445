import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  body: Buffer;
  type: string;
}

const PAGE_DIR = fileURLToPath(new URL('../assets/', import.meta.url));

/**
 * Everything the page loads, read once from this package and @xterm/xterm (no CDN): a page
 * works offline and cannot be changed by a third party.
 */
export function loadAssets(): Map<string, Asset> {
  const xtermDir = dirname(createRequire(import.meta.url).resolve('@xterm/xterm/package.json'));
  const js = 'text/javascript; charset=utf-8';
  const css = 'text/css; charset=utf-8';
  return new Map<string, Asset>([
    ['/assets/xterm.js', { body: readFileSync(join(xtermDir, 'lib', 'xterm.js')), type: js }],
    ['/assets/xterm.css', { body: readFileSync(join(xtermDir, 'css', 'xterm.css')), type: css }],
    ['/assets/view.js', { body: readFileSync(join(PAGE_DIR, 'view.js')), type: js }],
    ['/assets/view.css', { body: readFileSync(join(PAGE_DIR, 'view.css')), type: css }],
  ]);
}

/** The page, its asset URLs carrying the token (the page is only served to holders of it). */
export function pageHtml(token: string): string {
  const q = `?token=${encodeURIComponent(token)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>procmux view</title>
<link rel="stylesheet" href="/assets/xterm.css${q}">
<link rel="stylesheet" href="/assets/view.css${q}">
</head>
<body>
<header><h1>procmux</h1><span id="status">connecting…</span></header>
<main>
<section id="list"><table><thead><tr><th>session</th><th>command</th><th>state</th><th>age</th></tr></thead><tbody id="rows"></tbody></table></section>
<section id="detail">
<div id="bar"><span id="title">no session selected</span><span id="mode"></span><button id="take" disabled>Take control</button><button id="release" hidden>Release</button></div>
<div id="notice" role="status"></div>
<div id="terminal"></div>
</section>
</main>
<script src="/assets/xterm.js${q}"></script>
<script src="/assets/view.js${q}"></script>
</body>
</html>
`;
}
