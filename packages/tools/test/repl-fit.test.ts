// Which paste is fitted to a REPL: the prompt the program waits at (asked at once when not yet
// known, else the line its output ends on), its terminal's bracketed paste, and, for Node's
// `>`, the session's command.
import type { InputWait } from '@procmux/sessions';
import { describe, expect, it } from 'vitest';
import { fitToRepl } from '../src/repl-fit.js';
import type { ToolSession } from '../src/types.js';

interface Fake {
  input?: Partial<InputWait>;
  checked?: Partial<InputWait> | null;
  tail?: string;
  bracketedPaste?: boolean;
  command?: string;
}

function session(fake: Fake): ToolSession {
  return {
    bracketedPaste: fake.bracketedPaste ?? false,
    checkInput: async () => fake.checked ?? null,
    metadata: () => ({
      input: fake.input,
      tail: fake.tail ?? '',
      command: fake.command ?? 'python3',
      args: [],
      shell: true,
    }),
  } as unknown as ToolSession;
}

const BLOCK = 'def f():\n\n    return 1\nf()';

describe('fitToRepl', () => {
  it("fits a paste at Python's >>> whether the prompt is known, found by a check, or only shown", async () => {
    for (const fake of [
      { input: { prompt: '>>>' } },
      { checked: { prompt: '>>> ' } },
      { tail: 'Python 3.11.7\nType "help" for more information.\n>>> ' },
    ]) {
      expect((await fitToRepl(session(fake), BLOCK))?.text).toBe('def f():\n    return 1\n\nf()');
    }
  });

  it('leaves it as given elsewhere: bracketed paste asked for, another prompt, a full screen, one line, output not at a prompt', async () => {
    for (const fake of [
      { input: { prompt: '>>>' }, bracketedPaste: true },
      { input: { prompt: '...' } },
      { input: { prompt: '(Pdb)' } },
      { input: { prompt: '', fullScreen: true as const }, tail: '>>> ' },
      { tail: '>>> print(1)\n1\n' },
      { tail: 'running step 3' },
    ]) {
      expect(await fitToRepl(session(fake), BLOCK)).toBeUndefined();
    }
    expect(await fitToRepl(session({ input: { prompt: '>>>' } }), 'def f(): return 1')).toBeUndefined();
  });

  it("fits at `>` only when the session's command is Node's REPL", async () => {
    const chain = 'x = [1]\n  .map((v) => v)';
    expect((await fitToRepl(session({ input: { prompt: '>' }, command: 'node' }), chain))?.text).toBe(
      'x = [1] .map((v) => v)',
    );
    expect(
      await fitToRepl(session({ input: { prompt: '>' }, command: 'node cli.js' }), chain),
    ).toBeUndefined();
    expect(await fitToRepl(session({ input: { prompt: '>' }, command: 'bash' }), chain)).toBeUndefined();
  });
});
