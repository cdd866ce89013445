import { type ActionContext, sessionReply } from './action-context.js';
import { echo } from './echo.js';
import { fitToRepl } from './repl-fit.js';
import { noteTyped } from './typed-echo.js';
import type { ToolResult, ToolSession } from './types.js';

/** Keys that interrupt or suspend a program only through a terminal's line discipline. */
const TERMINAL_SIGNAL_KEYS = /^(C-c|C-\\|C-z|\^C|\^\\|\^Z)$/i;

/** write: raw data to stdin, as is. */
export async function writeAction(ctx: ActionContext): Promise<ToolResult> {
  const data = ctx.values.data ?? '';
  const session = ctx.session();
  noteTyped(session, data);
  await session.input(data);
  const bytes = Buffer.byteLength(data);
  return sessionReply(ctx, session, {
    header: `Wrote ${bytes} byte${bytes === 1 ? '' : 's'} to ${session.id}.`,
  });
}

/** paste: text typed into the session (bracketed when the program asked for it), not submitted. */
export async function pasteAction(ctx: ActionContext): Promise<ToolResult> {
  const given = ctx.values.text ?? '';
  const session = ctx.session();
  const bracketed =
    ctx.values.bracketed ??
    (typedAsKeys(session, given) || (await typedAhead(session, given)) ? false : undefined);
  const fit = bracketed === undefined ? await fitToRepl(session, given) : undefined;
  const text = fit?.text ?? given;
  noteTyped(session, text);
  await session.paste(text, bracketed === undefined ? {} : { bracketed });
  // The model's own text is counted; a fit's note says what was typed instead.
  const chars = [...given].length;
  return sessionReply(ctx, session, {
    header: `Pasted ${chars} character${chars === 1 ? '' : 's'} into ${session.id}; not submitted yet (use submit).`,
    notes: [fit?.note],
  });
}

/**
 * A full-screen program (vim) reads a bracketed paste as a block of text: `paste ':wq'` then
 * `submit` inserted ":wq" into the file instead of saving it. One line is typed there as keys,
 * as a person types it; several lines stay a paste (vim would indent each typed line again).
 */
function typedAsKeys(session: ToolSession, text: string): boolean {
  if (session.stdioMode !== 'pty' || /[\r\n]/.test(text)) return false;
  return session.fullScreen === true || session.metadata().input?.fullScreen === true;
}

/**
 * A line editor asks for bracketed paste only while it reads a line (bash, gdb and Python 3.13
 * turn it off once Enter is read); a paste that came sooner found it still on, and the kernel
 * echoed the brackets of text typed ahead to a busy program (`^[[200~run^[[201~(gdb) run`).
 * One plain line (no control characters: a tab would complete) is typed there as keys, which
 * the line editor reads the same; several lines stay a paste.
 */
async function typedAhead(session: ToolSession, text: string): Promise<boolean> {
  if (session.stdioMode !== 'pty' || session.bracketedPaste !== true) return false;
  if (text === '' || /[\u0000-\u001f\u007f]/.test(text)) return false;
  return (await session.checkInput?.()) === null;
}

/** submit: press Enter. */
export async function submitAction(ctx: ActionContext): Promise<ToolResult> {
  const session = ctx.session();
  await session.submit();
  return sessionReply(ctx, session, { header: `Pressed Enter in ${session.id}.` });
}

/** send_keys: named keys in order. */
export async function sendKeysAction(ctx: ActionContext): Promise<ToolResult> {
  const given = ctx.values.keys ?? [];
  const keys = typeof given === 'string' ? [given] : given;
  const session = ctx.session();
  await session.sendKeys(keys);
  const pipeNote =
    session.stdioMode === 'pipe' && keys.some((key) => TERMINAL_SIGNAL_KEYS.test(key))
      ? `(${session.id} runs on pipes, not a terminal: ${keys.join(' ')} arrived as plain bytes and interrupts nothing. Use kill to stop it.)`
      : undefined;
  const named = keys.join(' ');
  const sent = named.length <= 200 ? named : `${keys.length} keys (${echo(named)})`;
  return sessionReply(ctx, session, {
    header: `Sent ${sent} to ${session.id}.`,
    notes: [pipeNote],
  });
}

/** close_stdin: end of input. */
export async function closeStdinAction(ctx: ActionContext): Promise<ToolResult> {
  const session = ctx.session();
  await session.closeStdin();
  return sessionReply(ctx, session, { header: `Closed stdin of ${session.id}: it reads end of input now.` });
}

/** kill: the whole tree. Killing a session that already ended is not an error. */
export async function killAction(ctx: ActionContext): Promise<ToolResult> {
  const session = ctx.session();
  if (!session.live) {
    return sessionReply(ctx, session, { header: `${session.id} had already ended; nothing to kill.` });
  }
  await session.kill();
  return sessionReply(ctx, session, { header: `Killed ${session.id} and every process it started.` });
}
