// The public face of @procmux/mcp: every name here is listed in the README's "Exports".
// The CLI's argument parser, help text and demo are internals of `procmux`.

export type { CliProcess } from './cli-process.js';
export { type HttpRequest, type HttpServeHandle, serveHttp } from './http-serve.js';
export type { SandboxFacts } from './instructions.js';
export { main, nodeCliProcess } from './main.js';
export type { ResourceSessions } from './resources.js';
export { type ServeHandle, type ServeOptions, serveStdio } from './serve.js';
export { createProcmuxServer, type ProcmuxServerOptions, RESULT_META_KEY } from './server.js';
export {
  type BoundedStdioOptions,
  BoundedStdioServerTransport,
  DEFAULT_MAX_MESSAGE_BYTES,
} from './stdio-transport.js';
export { packageVersion } from './version.js';
