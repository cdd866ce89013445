export { type CliCommand, CliUsageError, parseCliArgs } from './args.js';
export { type DemoOptions, pickInterpreter, runDemo } from './demo.js';
export { type DemoInterpreter, nodeInterpreter, PYTHON } from './demo-script.js';
export { helpText } from './help.js';
export { type CliProcess, main, nodeCliProcess } from './main.js';
export { type ServeHandle, type ServeOptions, serveStdio } from './serve.js';
export { createProcmuxServer, RESULT_META_KEY } from './server.js';
export {
  type BoundedStdioOptions,
  BoundedStdioServerTransport,
  DEFAULT_MAX_MESSAGE_BYTES,
} from './stdio-transport.js';
export { packageVersion } from './version.js';
