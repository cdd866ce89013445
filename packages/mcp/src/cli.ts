#!/usr/bin/env node
import { main } from './main.js';

// Exit explicitly: stdin (the MCP transport) would otherwise keep the process alive.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `procmux: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
