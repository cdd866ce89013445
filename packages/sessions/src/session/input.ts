// What goes into a session: raw input, paste, keys, Enter, end of input, and resize (rate
// limited). A person holding control blocks every one of them for the model.
import { integerOption, invalidOption, ProcmuxError } from '@procmux/core-types';
import { encodeKeySequence, encodePaste } from '@procmux/key-encoder';
import type { SessionCore } from './core.js';
import { scheduleRecordWrite } from './delivered.js';
import { writable } from './guards.js';
import { humanControlError } from './human-control.js';
import type { PolicyAction } from './policy.js';

/** Writes `data` to stdin after the checks; `keys` allows a NUL typed as a key, `human` is a person. */
export async function write(
  s: SessionCore,
  data: string,
  action: PolicyAction,
  keys = false,
  human = false,
): Promise<void> {
  if (!human && s.control) throw humanControlError(s.id, s.control);
  const bytes = Buffer.byteLength(data);
  if (bytes > s.ctx.limits.maxInputBytes) {
    throw new ProcmuxError(
      'ERR_PROCESS_LIMIT',
      `input is ${bytes} bytes; at most ${s.ctx.limits.maxInputBytes} bytes per call`,
    );
  }
  // A NUL typed as a key (C-@) is a deliberate terminal byte; raw NULs in text are not.
  if (s.stdioMode === 'pty' && !keys && data.includes('\0')) {
    throw new ProcmuxError('ERR_PROCESS_POLICY', 'input to a PTY session must not contain NUL bytes');
  }
  await writable(s, action, bytes);
  // Checked again after the awaits: a person may have taken control meanwhile.
  if (!human && s.control) throw humanControlError(s.id, s.control);
  s.run!.stdin!.write(data);
  // What the current line holds now stood before this input; a reply to it comes after.
  s.staleChars = s.emulated
    ? { stdout: s.screen?.cursorLine?.().length ?? 0, stderr: 0 }
    : { stdout: s.transcript.live.stdout.openLine.length, stderr: s.transcript.live.stderr.openLine.length };
  s.input.noteInput();
}

export async function input(s: SessionCore, data: string): Promise<void> {
  if (typeof data !== 'string') throw invalidOption('input', 'a string', { value: data });
  await write(s, data, 'input');
}

export async function paste(
  s: SessionCore,
  text: string,
  options: { bracketed?: boolean } = {},
): Promise<void> {
  if (typeof text !== 'string') throw invalidOption('text', 'a string', { value: text });
  if (options.bracketed === true && s.stdioMode !== 'pty') {
    throw invalidOption('bracketed', 'false or left out for a pipe session (bracketed paste needs a PTY)', {
      value: options.bracketed,
    });
  }
  const bracketed = s.stdioMode === 'pty' && (options.bracketed ?? pasteBracketed(s));
  await write(s, encodePaste(text, { bracketed }), 'input');
}

/** Whether a paste goes bracketed now: the program's last ESC[?2004h/l; never on pipes. */
export function pasteBracketed(s: SessionCore): boolean {
  if (s.stdioMode !== 'pty') return false;
  if (s.screen) return s.screen.modes.bracketedPaste;
  return s.run?.stdin?.bracketedPasteEnabled ?? false;
}

export async function sendKeys(s: SessionCore, keys: string | readonly string[]): Promise<void> {
  const list = typeof keys === 'string' ? [keys] : [...keys];
  const data = encodeKeySequence({
    keys: list,
    applicationCursorKeys: s.screen?.modes.applicationCursorKeys ?? false,
  });
  await write(s, data, 'input', true);
}

export async function closeStdin(s: SessionCore): Promise<void> {
  if (s.control) throw humanControlError(s.id, s.control);
  await writable(s, 'input', 0);
  s.run!.stdin?.close();
  if (s.stdioMode === 'pipe') s.stdinClosed = true;
}

export async function resize(s: SessionCore, size: { columns: number; rows: number }): Promise<void> {
  if (s.control) throw humanControlError(s.id, s.control);
  await writable(s, 'input', 0);
  const resizeRun = s.run?.resize;
  if (s.stdioMode !== 'pty' || !resizeRun) {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `session ${s.id} cannot be resized: its backend declares no resize`,
    );
  }
  const { maxTerminalColumns, maxTerminalRows, maxResizesPerMinute } = s.ctx.limits;
  if (typeof size !== 'object' || size === null) {
    throw invalidOption('size', 'an object { columns, rows }', { value: size });
  }
  // No default for a missing dimension: the NaN fallback makes it an error saying what is allowed.
  integerOption('columns', size.columns ?? undefined, { min: 1, max: maxTerminalColumns, required: true });
  integerOption('rows', size.rows ?? undefined, { min: 1, max: maxTerminalRows, required: true });
  const now = Date.now();
  s.resizes = s.resizes.filter((t) => now - t < 60_000);
  if (s.resizes.length >= maxResizesPerMinute) {
    throw new ProcmuxError(
      'ERR_PROCESS_PTY_LIMIT',
      `session ${s.id} was resized ${maxResizesPerMinute} times in the last minute; that is the limit`,
    );
  }
  s.resizes.push(now);
  resizeRun.call(s.run, size.columns, size.rows);
  s.screen?.resize(size.columns, size.rows);
  s.terminal = { columns: size.columns, rows: size.rows };
  s.transcript.resize(now, size.columns, size.rows);
  s.watchers.emit({ type: 'resize', columns: size.columns, rows: size.rows });
  scheduleRecordWrite(s);
}
