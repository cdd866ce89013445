// The terminal app's page as an MCP Apps resource. The page is built with the package
// (scripts/build-app.mjs: xterm.js and ext-apps' App class inlined, nothing fetched), so it is
// read from dist/app/terminal.html whether this module runs from src/ or dist/.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { ProcmuxError } from '@procmux/core-types';

export const TERMINAL_APP_URI = 'ui://procmux/terminal';
/** The MIME type MCP Apps hosts render (ext-apps' RESOURCE_MIME_TYPE). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export const TERMINAL_APP_RESOURCE: Resource = {
  uri: TERMINAL_APP_URI,
  name: 'procmux-terminal',
  title: 'procmux terminal',
  description: "A session's terminal, live; a person can take control and type (exec mode session, process).",
  mimeType: APP_MIME_TYPE,
};

// src/app/ and dist/app/ are both two levels below the package root.
const PAGE = fileURLToPath(new URL('../../dist/app/terminal.html', import.meta.url));

let page: Promise<string> | undefined;

/** The page's HTML, read once on first use. */
export function terminalAppHtml(): Promise<string> {
  page ??= readFile(PAGE, 'utf8').catch((error: unknown) => {
    page = undefined;
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `the terminal app's page ${PAGE} is missing: this @procmux/mcp was not built with it (pnpm build builds it)`,
      { cause: error },
    );
  });
  return page;
}

/** The resources/read answer for the app: the page, and that it wants no network at all. */
export async function readTerminalApp(): Promise<{
  uri: string;
  mimeType: string;
  text: string;
  _meta: Record<string, unknown>;
}> {
  return {
    uri: TERMINAL_APP_URI,
    mimeType: APP_MIME_TYPE,
    text: await terminalAppHtml(),
    // An empty CSP domain list: the page loads nothing and talks only to its host.
    _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
  };
}
