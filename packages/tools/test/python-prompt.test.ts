// A paste into Python's own prompt (3.12 and older read it line by line, as typed) runs as the
// same code run from a file would: blank lines inside a block would end it there, and a
// statement right after a block needs a blank line before it.
import { waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { fitPythonPrompt } from '../src/python-prompt.js';
import { closingHarness, idOf, lastLine } from './helpers.js';

const harness = closingHarness();
const posix = process.platform !== 'win32';

/** A module's worth of code as a model pastes it: blank lines inside blocks, none after them. */
const MODULE = [
  'import functools',
  '',
  'def double(x):',
  '    y = x * 2',
  '',
  '    return y',
  'class Box:',
  '    """A box.',
  '',
  '    Holds one value."""',
  '',
  '    def __init__(self, v):',
  '        self.v = v',
  '# a note at the margin, inside the class',
  '    def items(self):',
  '        return [self.v,',
  '',
  '                double(self.v)]',
  '@functools.lru_cache',
  '@functools.wraps(double)',
  'def cached(x):',
  '    return x + 1',
  'try:',
  '    1 / 0',
  '',
  'except ZeroDivisionError:',
  '    caught = True',
  'if caught:',
  '    first = Box(21).items()',
  'else:',
  '    first = None',
  'print("result", first, cached(1), Box.__doc__.count(chr(10)))',
].join('\n');

describe('fitPythonPrompt', () => {
  it('leaves out blank lines inside blocks and puts one after each block, keeping strings and brackets', () => {
    const fit = fitPythonPrompt(MODULE);
    expect(fit?.text).toBe(
      [
        'import functools',
        '',
        'def double(x):',
        '    y = x * 2',
        '    return y',
        '',
        'class Box:',
        '    """A box.',
        '',
        '    Holds one value."""',
        '    def __init__(self, v):',
        '        self.v = v',
        '# a note at the margin, inside the class',
        '    def items(self):',
        '        return [self.v,',
        '',
        '                double(self.v)]',
        '',
        '@functools.lru_cache',
        '@functools.wraps(double)',
        'def cached(x):',
        '    return x + 1',
        '',
        'try:',
        '    1 / 0',
        'except ZeroDivisionError:',
        '    caught = True',
        '',
        'if caught:',
        '    first = Box(21).items()',
        'else:',
        '    first = None',
        '',
        'print("result", first, cached(1), Box.__doc__.count(chr(10)))',
      ].join('\n'),
    );
    expect(fit).toMatchObject({ dropped: 3, added: 5, openBlock: false, crlf: false });
  });

  it('sends the last line of a trailing block, so that submit is the blank line that runs it', () => {
    expect(fitPythonPrompt('total = 0\nfor i in range(3):\n    total += i')).toEqual({
      text: 'total = 0\nfor i in range(3):\n    total += i\n',
      dropped: 0,
      added: 0,
      openBlock: true,
      crlf: false,
    });
    // Already ended with a line break, or with the blank line that runs it: nothing to change.
    expect(fitPythonPrompt('for i in range(3):\n    print(i)\n')).toBeUndefined();
    expect(fitPythonPrompt('for i in range(3):\n    print(i)\n\n')).toBeUndefined();
    // A header with no body yet: the model goes on typing it.
    expect(fitPythonPrompt('x = 1\nfor i in range(x):')).toBeUndefined();
  });

  it('changes nothing in one line, in statements with no block, or in text it cannot read whole', () => {
    expect(fitPythonPrompt('if x:\n')).toBeUndefined();
    expect(fitPythonPrompt('for i in range(3): print(i)')).toBeUndefined();
    expect(fitPythonPrompt('x = 1\n\ny = [1,\n\n2]\nprint(x, y)')).toBeUndefined();
    // A string or a bracket left open, or a backslash at the end: sent as given.
    expect(fitPythonPrompt('def f():\n\n    s = """open')).toBeUndefined();
    expect(fitPythonPrompt('def f():\n\n    return g(1,')).toBeUndefined();
    expect(fitPythonPrompt('def f():\n\n    return 1 + \\')).toBeUndefined();
  });

  it('reads quotes, escapes and comments as Python does', () => {
    const fit = fitPythonPrompt(
      ['def f():', "    a = 'it\\'s # not a comment ('", '', '    return a  # ) """', 'f()'].join('\n'),
    );
    expect(fit?.text).toBe(
      ['def f():', "    a = 'it\\'s # not a comment ('", '    return a  # ) """', '', 'f()'].join('\n'),
    );
    // `match` opens a block only as a statement with a colon.
    expect(fitPythonPrompt('match = 1\nprint(match)')).toBeUndefined();
    expect(fitPythonPrompt('match x:\n    case 1:\n        y = 2\nprint(y)')?.text).toBe(
      'match x:\n    case 1:\n        y = 2\n\nprint(y)',
    );
  });

  it('takes a paste of any size: 300,000 blank lines inside a block', () => {
    const fit = fitPythonPrompt(`def f():\n${'\n'.repeat(300_000)}    return 1\nf()`);
    expect(fit).toMatchObject({ text: 'def f():\n    return 1\n\nf()', dropped: 300_000, added: 1 });
    const trailing = fitPythonPrompt(`x = 1\n${'\n'.repeat(300_000)}`);
    expect(trailing).toBeUndefined();
  });

  it('sends \\r\\n line ends as \\n (the prompt read each as a line and a blank line)', () => {
    expect(fitPythonPrompt('x = 1\r\nprint(x)\r\n')).toEqual({
      text: 'x = 1\nprint(x)\n',
      dropped: 0,
      added: 0,
      openBlock: false,
      crlf: true,
    });
  });
});

describe.skipIf(!posix)("paste at Python's own prompt", () => {
  it('runs a module with blank lines inside its blocks on one submit, and says what it fitted', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'python3 -q', mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    // Right after the reply that showed the prompt, as a model pastes.
    const pasted = await h.proc({ action: 'paste', session_id: id, text: MODULE });
    expect(pasted.text).toContain(
      "Fitted to Python's prompt, which ends a block at a blank line (3 blank lines inside a block left out; 5 blank lines put after a block).",
    );
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^result ', timeout: 10_000 });
    expect(r.text).toMatch(/^result \[21, 42\] 2 2$/m);
    expect(r.text).not.toMatch(/Traceback|^\s*\w+Error: /m);
  });

  it('runs a trailing loop on one submit', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'python3 -q', mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    const pasted = await h.proc({
      action: 'paste',
      session_id: id,
      text: 'for i in range(3):\n    print("loop", i * 7)',
    });
    expect(pasted.text).toContain(
      "Its last block's lines are in: the prompt waits at `...`, and submit runs it.",
    );
    // The text given is counted, not the line end the fit added.
    expect(pasted.text.split('\n')[0]).toBe(
      `Pasted 43 characters into ${id}; not submitted yet (use submit).`,
    );
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^loop 14$', timeout: 10_000 });
    expect(r.data.wait?.outcome).toBe('matched');
    const back = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    expect(back.data.wait?.outcome).toBe('matched');
  });

  it('two pastes at once are each fitted on its own and typed whole, one after the other', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'python3 -q', mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    const paste = (name: string, value: number) =>
      h.proc({
        action: 'paste',
        session_id: id,
        text: `def ${name}():\n    v = ${value}\n\n    return v\nprint('got', '${name}', ${name}())\n`,
      });
    const [a, b] = await Promise.all([paste('a', 1), paste('b', 2)]);
    for (const pasted of [a, b]) expect(pasted.text).toContain("Fitted to Python's prompt");
    // Whichever came first, both run: the log holds both answers.
    let log = '';
    await waitFor(
      async () => {
        log = (await h.proc({ action: 'log', session_id: id, limit: 200 })).text;
        return /^got a 1$/m.test(log) && /^got b 2$/m.test(log);
      },
      10_000,
      'both pasted programs to answer',
    );
    expect(log).not.toMatch(/Traceback|^\s*\w+Error: /m);
  });

  it('leaves a paste to a `>>>` prompt that asked for bracketed paste (Python 3.13) as it is', async () => {
    const h = harness();
    // Asks for bracketed paste as Python 3.13's prompt does, then reports what the paste brought.
    const program = [
      'import sys',
      'sys.stdout.write("\\x1b[?2004h>>> "); sys.stdout.flush()',
      'data = ""',
      'while "\\x1b[201~" not in data: data += sys.stdin.readline()',
      'print("got", repr(data))',
    ].join('\n');
    const id = idOf(await h.exec({ command: `python3 -c '${program}'`, mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    const pasted = await h.proc({ action: 'paste', session_id: id, text: 'def f():\n\n    return 1\nf()' });
    expect(pasted.text).not.toContain('Fitted');
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^got ', timeout: 10_000 });
    expect(r.text).toContain("got '\\x1b[200~def f():\\n\\n    return 1\\nf()\\x1b[201~\\n'");
    expect(lastLine((await h.proc({ action: 'wait_for', session_id: id, exit: true })).text)).toBe(
      'Process exited with code 0.',
    );
  });
});
