import { describe, expect, it } from 'vitest';
import { IdScanner } from '../src/id-scanner.js';
import { LineFramer } from '../src/line-framer.js';

function scan(text: string, pieces = 1): string | number | null {
  const scanner = new IdScanner();
  const bytes = Buffer.from(text);
  const step = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += step) scanner.push(bytes.subarray(at, at + step));
  scanner.end();
  return scanner.id;
}

describe('IdScanner', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":7,"method":"x"}', 7],
    ['{"method":"x","params":{"id":99,"a":[{"id":1}]},"jsonrpc":"2.0","id":"req-1"}', 'req-1'],
    ['{ "id" : -12 , "method":"x"}', -12],
    ['{"params":{"text":"\\"id\\":5"},"id":3}', 3],
    ['{"method":"notifications/x"}', null],
    ['{"id":"with \\" escape"}', null],
    ['{"idx":1,"id":null}', null],
    [`{"id":"${'x'.repeat(300)}"}`, null],
  ])('finds the top-level id of %s', (text, id) => {
    expect(scan(text)).toEqual(id);
    expect(scan(text, 7)).toEqual(id);
  });
});

describe('LineFramer', () => {
  it('splits lines across chunks and drops a trailing CR', () => {
    const framer = new LineFramer(100);
    expect(framer.push(Buffer.from('{"a":1}\r\n{"b"'))).toEqual([{ kind: 'line', text: '{"a":1}' }]);
    expect(framer.push(Buffer.from(':2}\n'))).toEqual([{ kind: 'line', text: '{"b":2}' }]);
  });

  it('reports an oversized line with its size and id, holding none of it, and goes on', () => {
    const framer = new LineFramer(64);
    const big = `{"method":"tools/call","params":{"x":"${'y'.repeat(1000)}"},"jsonrpc":"2.0","id":41}`;
    const frames = [];
    for (let at = 0; at < big.length; at += 50)
      frames.push(...framer.push(Buffer.from(big.slice(at, at + 50))));
    frames.push(...framer.push(Buffer.from('\n{"ok":true}\n')));
    expect(frames).toEqual([
      { kind: 'oversized', bytes: big.length, id: 41 },
      { kind: 'line', text: '{"ok":true}' },
    ]);
  });

  it('takes a line of exactly the limit', () => {
    const framer = new LineFramer(8);
    expect(framer.push(Buffer.from('12345678\n123456789\n'))).toEqual([
      { kind: 'line', text: '12345678' },
      { kind: 'oversized', bytes: 9, id: null },
    ]);
  });
});
