import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type Frame, LineFramer } from './line-framer.js';
import { checkLine, errorResponse } from './message-checks.js';

/** Longest message the server reads: 8 MiB, well above any input a tool call may carry. */
export const DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

export interface BoundedStdioOptions {
  /** Longest line (one JSON-RPC message) read, in bytes; a longer one is answered with an error. */
  maxMessageBytes?: number;
  /** Where to say what was refused (never stdout). */
  log?: (line: string) => void;
}

/**
 * The server side of MCP over stdio, newline-delimited JSON-RPC, like the SDK's
 * StdioServerTransport but safe against any input: a line over `maxMessageBytes` is dropped
 * as it streams (never buffered whole) and answered with an error naming the limit; a line
 * that is not JSON, not JSON-RPC 2.0, or a tools/call without a usable name or arguments, is
 * answered with a readable error. None of these ends the connection.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly maxMessageBytes: number;
  readonly #framer: LineFramer;
  readonly #log: (line: string) => void;
  #started = false;
  #closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    options: BoundedStdioOptions = {},
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#framer = new LineFramer(this.maxMessageBytes);
    this.#log = options.log ?? (() => {});
  }

  readonly #onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (const frame of this.#framer.push(bytes)) this.#handle(frame);
  };

  readonly #onError = (error: Error) => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    if (this.#started) throw new Error('BoundedStdioServerTransport already started');
    this.#started = true;
    this.stdin.on('data', this.#onData);
    this.stdin.on('error', this.#onError);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.stdin.off('data', this.#onData);
    this.stdin.off('error', this.#onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  #handle(frame: Frame): void {
    if (frame.kind === 'oversized') {
      const size = frame.bytes.toLocaleString('en-US');
      const limit = this.maxMessageBytes.toLocaleString('en-US');
      this.#log(`procmux mcp: refused a ${size}-byte message (limit ${limit} bytes)`);
      void this.send(
        errorResponse(
          frame.id,
          ErrorCode.InvalidRequest,
          `message of ${size} bytes is over this server's limit of ${limit} bytes per message; ` +
            'it was not read and nothing was run. Send less per call (paste or write a large text in parts).',
        ),
      );
      return;
    }
    if (frame.text.trim() === '') return;
    const checked = checkLine(frame.text);
    if ('error' in checked) {
      void this.send(checked.error);
      return;
    }
    this.onmessage?.(checked.message);
  }
}
