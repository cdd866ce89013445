// A paste of several lines into a REPL that reads it as typed lines (no bracketed paste) is
// fitted to how that REPL reads lines: Python's prompt (python-prompt.ts) and Node's
// (node-prompt.ts). Any other program gets the text as given.
import { fitNodePrompt, runsNodeRepl } from './node-prompt.js';
import { fitPythonPrompt, type PythonPromptFit } from './python-prompt.js';
import type { ToolSession } from './types.js';

/** The text to type instead of the one given, and the note that says what changed. */
export interface ReplFit {
  text: string;
  note: string;
}

/**
 * The fit for `text` pasted into `session` now, or undefined. The prompt is asked at once when
 * not yet known: a paste right after the reply that showed it came before the background
 * check had seen it. Where the check cannot say yet (a host's backend, tmux: it guesses after
 * 500 ms of quiet), the line the output ends on is the prompt.
 */
export async function fitToRepl(session: ToolSession, text: string): Promise<ReplFit | undefined> {
  if (!text.includes('\n') || session.bracketedPaste !== false) return undefined;
  const input = session.metadata().input ?? (await session.checkInput?.());
  const prompt = input
    ? input.fullScreen
      ? undefined
      : input.prompt.trim()
    : unfinishedLine(session.metadata().tail);
  if (prompt === '>>>') {
    const fit = fitPythonPrompt(text);
    return fit && { text: fit.text, note: pythonNote(fit) };
  }
  if (prompt === '>' && nodeRepl(session)) {
    const fit = fitNodePrompt(text);
    const lines = fit && `${fit.joined} line${fit.joined === 1 ? '' : 's'}`;
    return (
      fit && {
        text: fit.text,
        note: `Fitted to Node's REPL, which runs each line that ends a statement: ${lines} that go on the expression above (starting with \`.\`, \`?\`, \`:\`, \`??\`, \`||\` or \`&&\`) joined to it.`,
      }
    );
  }
  return undefined;
}

/** Whether the session runs Node's REPL: its own command, or what was started in its terminal (a shell's `node`). */
function nodeRepl(session: ToolSession): boolean {
  const { command, args, shell } = session.metadata();
  if (runsNodeRepl(command, args, shell === true)) return true;
  const [program, ...rest] = session.foregroundCommand ?? [];
  return program !== undefined && runsNodeRepl(program, rest, false);
}

function pythonNote(fit: PythonPromptFit): string {
  const plural = (n: number) => `${n} blank line${n === 1 ? '' : 's'}`;
  const changes = [
    fit.dropped > 0 ? `${plural(fit.dropped)} inside a block left out` : '',
    fit.added > 0 ? `${plural(fit.added)} put after a block` : '',
    fit.crlf ? 'line ends \\r\\n sent as \\n' : '',
  ].filter((change) => change !== '');
  const what = changes.length > 0 ? ` (${changes.join('; ')})` : '';
  const open = fit.openBlock
    ? " Its last block's lines are in: the prompt waits at `...`, and submit runs it."
    : '';
  return `Fitted to Python's prompt, which ends a block at a blank line${what}.${open}`;
}

/** The last line of output when it has no line end yet (a prompt), trimmed. */
function unfinishedLine(tail: string): string {
  return tail.slice(Math.max(tail.lastIndexOf('\n'), tail.lastIndexOf('\r')) + 1).trim();
}
