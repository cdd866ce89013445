// A paste into Node's REPL runs as the file it was formatted for: a line that goes on the
// expression above it (`.map(...)`, a ternary's `?` and `:`) is not a statement of its own.
import { describe, expect, it } from 'vitest';
import { fitNodePrompt, runsNodeRepl } from '../src/node-prompt.js';
import { closingHarness, idOf } from './helpers.js';

const harness = closingHarness();
const posix = process.platform !== 'win32';

/** Code as Prettier lays it out: chains, a ternary, `??`, a call going on after its `})`. */
const FORMATTED = [
  'const x = [1, 2, 3] // numbers',
  '  .map((v) => v * 2)',
  '  .filter((v) => v > 2);',
  'const label = x.length > 1 && x[0] === 4',
  "  ? 'many'",
  "  : 'one';",
  "const y = null\n  ?? 'fallback';",
  'const s = `a',
  '.b`.trim();',
  'const z = [7].map((v) => {',
  '  return v;',
  '})',
  '  .pop();',
  'console.log("res", x.join(","), label, y, JSON.stringify(s), z);',
].join('\n');

describe('fitNodePrompt', () => {
  it('joins each line that goes on the expression above to it, moving a `//` comment to the end', () => {
    expect(fitNodePrompt(FORMATTED)).toEqual({
      text: [
        'const x = [1, 2, 3] .map((v) => v * 2) .filter((v) => v > 2); // numbers',
        "const label = x.length > 1 && x[0] === 4 ? 'many' : 'one';",
        "const y = null ?? 'fallback';",
        'const s = `a',
        '.b`.trim();',
        'const z = [7].map((v) => {',
        '  return v;',
        '}) .pop();',
        'console.log("res", x.join(","), label, y, JSON.stringify(s), z);',
      ].join('\n'),
      joined: 6,
    });
  });

  it('reads strings, regular expressions and comments as JavaScript does', () => {
    // `//` in a string is no comment; a quote in a regular expression opens no string.
    expect(fitNodePrompt("const u = 'http://x'\n  .toUpperCase()")?.text).toBe(
      "const u = 'http://x' .toUpperCase()",
    );
    expect(fitNodePrompt("const r = /'[/]/\n  .source")?.text).toBe("const r = /'[/]/ .source");
    // A line inside a block comment is not code.
    expect(fitNodePrompt('/* a\n .b */\nfoo()\n  .bar()')?.text).toBe('/* a\n .b */\nfoo() .bar()');
    // A line after a comment line is not joined to the comment.
    expect(fitNodePrompt('// note\n.5 + 1')).toBeUndefined();
    expect(fitNodePrompt('x = 1\n// note\n  .toString()')).toBeUndefined();
  });

  it('changes nothing in one line, in statements that end where their lines do, or in text it cannot read whole', () => {
    expect(fitNodePrompt('[1, 2].map((v) => v)')).toBeUndefined();
    expect(fitNodePrompt('const a = 1;\nconsole.log(a)')).toBeUndefined();
    // Inside brackets the REPL waits for the rest itself.
    expect(fitNodePrompt('foo(\n  a\n    .b,\n)')).toBeUndefined();
    // The REPL's own commands on a line of their own.
    expect(fitNodePrompt('console.log(1)\n.exit')).toBeUndefined();
    // A string, template or comment left open, or a bracket closed that was never opened.
    expect(fitNodePrompt("x = 'open\n  .b")).toBeUndefined();
    expect(fitNodePrompt('x = `open\n.b')).toBeUndefined();
    expect(fitNodePrompt('x = 1 /* open\n  .b')).toBeUndefined();
    expect(fitNodePrompt('x = 1)\n  .b')).toBeUndefined();
  });
});

describe('runsNodeRepl', () => {
  it('is node with options only, or with -i: not a script', () => {
    expect(runsNodeRepl('node', [], true)).toBe(true);
    expect(runsNodeRepl('node --experimental-vm-modules', [], true)).toBe(true);
    expect(runsNodeRepl('/usr/local/bin/node', [], false)).toBe(true);
    expect(runsNodeRepl('nodejs', [], true)).toBe(true);
    expect(runsNodeRepl('node -i -e "globalThis.a = 1"', [], true)).toBe(true);
    expect(runsNodeRepl('node server.js', [], true)).toBe(false);
    expect(runsNodeRepl('node', ['app.js'], false)).toBe(false);
    expect(runsNodeRepl('bash', [], true)).toBe(false);
    expect(runsNodeRepl('nodemon', [], true)).toBe(false);
  });
});

describe.skipIf(!posix)("paste at Node's REPL", () => {
  it('runs code laid out over lines as the file would, and says what it joined', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'node', mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^> ', timeout: 10_000 });
    const pasted = await h.proc({ action: 'paste', session_id: id, text: FORMATTED });
    expect(pasted.text).toContain(
      "Fitted to Node's REPL, which runs each line that ends a statement: 6 lines",
    );
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^res ', timeout: 10_000 });
    expect(r.text).toMatch(/^res 4,6 many fallback "a\\n.b" 7$/m);
    expect(r.text).not.toMatch(/Invalid REPL keyword|SyntaxError/);
  });

  it('fits a paste to the Node REPL a shell started (the terminal says what runs in it)', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'bash --norc --noprofile', mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, input: true, timeout: 10_000 });
    await h.proc({ action: 'paste', session_id: id, text: process.execPath });
    await h.proc({ action: 'submit', session_id: id });
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^> $', timeout: 10_000 });
    expect(h.sessions.get(id).foregroundCommand).toEqual([process.execPath]);
    const pasted = await h.proc({ action: 'paste', session_id: id, text: FORMATTED });
    expect(pasted.text).toContain("Fitted to Node's REPL");
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^res ', timeout: 10_000 });
    expect(r.text).toMatch(/^res 4,6 many fallback "a\\n.b" 7$/m);
    expect(r.text).not.toMatch(/Invalid REPL keyword|SyntaxError/);
  });

  it('leaves a paste to a script prompting with `> ` as it is', async () => {
    const h = harness();
    const script =
      "const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout, prompt: '> ' }); rl.prompt(); rl.on('line', (l) => { console.log('got [' + l + ']'); rl.prompt(); })";
    const id = idOf(await h.exec({ command: `node -e "${script}"`, mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^> ', timeout: 10_000 });
    const pasted = await h.proc({ action: 'paste', session_id: id, text: 'a\n  .b' });
    expect(pasted.text).not.toContain('Fitted');
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({
      action: 'wait_for',
      session_id: id,
      pattern: '^got \\[  \\.b\\]$',
      timeout: 10_000,
    });
    expect(r.text).toContain('got [a]');
  });
});
