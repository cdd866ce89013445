// What the server answers to a line that is not a message it can act on. The SDK drops such
// lines silently (the client waits for its timeout) or answers with a raw validator dump; a
// client gets a JSON-RPC error it can read instead, with its id wherever the id can be read.
import {
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { echo } from '@procmux/tools';
import type { RecoveredId } from './id-scanner.js';

export type Checked = { message: JSONRPCMessage } | { error: JSONRPCErrorResponse };

/** A JSON-RPC error response; `id` null when the request's id could not be read. */
export function errorResponse(id: RecoveredId, code: number, message: string): JSONRPCErrorResponse {
  // The SDK's type wants an id; JSON-RPC 2.0 answers an unreadable request with id null.
  return { jsonrpc: '2.0', id: id as string | number, error: { code, message } };
}

/** The request's id when it is one JSON-RPC allows (a string or a number), else null. */
export function readableId(value: unknown): RecoveredId {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const id = (value as { id?: unknown }).id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  }
  return null;
}

/** Parses and checks one line; anything the server cannot act on comes back as the error to send. */
export function checkLine(line: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      error: errorResponse(
        null,
        ErrorCode.ParseError,
        `the line is not valid JSON (${(error as Error).message.slice(0, 120)}); send one JSON-RPC 2.0 message per line`,
      ),
    };
  }
  return checkValue(value);
}

/** Checks a parsed message: the JSON-RPC 2.0 envelope, then what tools/call needs. */
export function checkValue(value: unknown): Checked {
  const id = readableId(value);
  const invalid = (message: string): Checked => ({
    error: errorResponse(id, ErrorCode.InvalidRequest, message),
  });
  if (Array.isArray(value)) return invalid('batches are not supported; send one message per line');
  if (typeof value !== 'object' || value === null) {
    return invalid('a message must be a JSON object with "jsonrpc": "2.0"');
  }
  const record = value as Record<string, unknown>;
  if (record.jsonrpc !== '2.0') {
    const got = typeof record.jsonrpc === 'string' ? echo(record.jsonrpc) : String(record.jsonrpc);
    return invalid(`"jsonrpc" must be "2.0" (got ${got}); this server speaks JSON-RPC 2.0 only`);
  }
  if ('id' in record && id === null && record.id !== undefined) {
    return invalid('"id" must be a string or a number');
  }
  if ('method' in record && typeof record.method !== 'string') {
    return invalid('"method" must be a string');
  }
  if (record.method === 'tools/call' && id !== null) {
    const problem = toolsCallProblem(record.params);
    if (problem) return { error: errorResponse(id, ErrorCode.InvalidParams, problem) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    return invalid(
      'not a JSON-RPC 2.0 request, notification or response: a request has "method" and "id", ' +
        'a notification "method" and no "id", a response "id" and "result" or "error"',
    );
  }
  return { message: parsed.data };
}

/** What is wrong with the params of a tools/call, in words, or undefined when nothing is. */
function toolsCallProblem(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return 'tools/call needs params { "name": <tool name>, "arguments": { ... } }';
  }
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') {
    return `tools/call needs params.name, the tool to call: "exec" or "process" (got ${kind(name)})`;
  }
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    return `tools/call params.arguments must be an object of named parameters (got ${kind(args)})`;
  }
  return undefined;
}

function kind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : `the string ${echo(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value).slice(0, 40)}`;
}
