import { describe, expect, it } from 'vitest';
import { checkLine } from '../src/message-checks.js';

const error = (line: string) => {
  const checked = checkLine(line);
  if (!('error' in checked)) throw new Error('expected an error');
  return checked.error;
};

describe('checkLine', () => {
  it('passes a valid request through', () => {
    expect(checkLine('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).toEqual({
      message: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
  });

  it.each([
    ['{oops', null, -32700, 'the line is not valid JSON'],
    ['[{"jsonrpc":"2.0","id":1,"method":"x"}]', null, -32600, 'batches are not supported'],
    ['"hello"', null, -32600, 'a message must be a JSON object'],
    ['{"jsonrpc":"1.0","id":5,"method":"tools/list"}', 5, -32600, '"jsonrpc" must be "2.0" (got "1.0")'],
    ['{"id":"a","method":"tools/list"}', 'a', -32600, '"jsonrpc" must be "2.0" (got undefined)'],
    ['{"jsonrpc":"2.0","id":{},"method":"x"}', null, -32600, '"id" must be a string or a number'],
    ['{"jsonrpc":"2.0","id":2,"method":7}', 2, -32600, '"method" must be a string'],
    ['{"jsonrpc":"2.0","id":3}', 3, -32600, 'not a JSON-RPC 2.0 request'],
    ['{"jsonrpc":"2.0","id":4,"method":"tools/call"}', 4, -32602, 'tools/call needs params { "name"'],
    [
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}}',
      4,
      -32602,
      'tools/call needs params.name, the tool to call: "exec" or "process" (got nothing)',
    ],
    ['{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}', 4, -32602, '(got number 5)'],
    [
      '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"exec","arguments":"ls"}}',
      6,
      -32602,
      'tools/call params.arguments must be an object of named parameters (got the string "ls")',
    ],
    [
      '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"exec","arguments":[]}}',
      6,
      -32602,
      '(got an array)',
    ],
  ])('answers %s with id %o, code %i: %s', (line, id, code, message) => {
    const e = error(line);
    expect(e.id).toBe(id);
    expect(e.error.code).toBe(code);
    expect(e.error.message).toContain(message);
  });

  it('repeats a huge jsonrpc value only as a prefix and its length', () => {
    const e = error(`{"jsonrpc":"${'9'.repeat(100_000)}","id":1,"method":"x"}`);
    expect(e.error.message.length).toBeLessThan(200);
    expect(e.error.message).toContain('(100,000 characters)');
  });
});
