// People watching a session: live listeners, a snapshot to start a view from, a person
// taking the keyboard, and the asciicast recording. Input typed by a person is never kept.
import { integerOption, invalidOption, ProcmuxError } from '@procmux/core-types';
import type { SessionCore } from './core.js';
import { sessionEvent } from './events.js';
import { access, writable } from './guards.js';
import { type HumanControlLease, holderName } from './human-control.js';
import { write } from './input.js';
import type { SessionWatcher } from './session-watch.js';

/** Output a pipe session's snapshot() starts with by default: the tail a viewer scrolls back through. */
const SNAPSHOT_BYTES = 1024 * 1024;

export function watch(s: SessionCore, listener: SessionWatcher): () => void {
  if (typeof listener !== 'function')
    throw invalidOption('listener', 'a function (watch() takes a function)', { value: listener });
  return s.watchers.add(listener);
}

export async function snapshot(
  s: SessionCore,
  options: { maxBytes?: number } = {},
): Promise<{ data: string; offset: number; emulated: boolean }> {
  await access(s);
  const maxBytes = integerOption('maxBytes', options.maxBytes ?? undefined, {
    min: 1,
    max: s.ctx.limits.maxOutputBytes,
    default: SNAPSHOT_BYTES,
  });
  if (s.screen) {
    const data = await s.screen.serialize();
    // Read in the same tick the screen caught up in: no output arrived in between.
    return { data, offset: s.transcript.log.totalBytes, emulated: true };
  }
  const pages: string[] = [];
  let cursor = Math.max(s.transcript.log.firstRetainedOffset, s.transcript.log.totalBytes - maxBytes);
  for (;;) {
    const page = s.transcript.log.read({ cursor });
    pages.push(page.data);
    if (page.eof || page.cursor === cursor) break;
    cursor = page.cursor;
  }
  return { data: pages.join(''), offset: s.transcript.log.totalBytes, emulated: false };
}

export async function takeControl(s: SessionCore, options: { holder: string }): Promise<HumanControlLease> {
  const holder = holderName(options?.holder);
  await writable(s, 'input', 0);
  if (s.control) {
    throw new ProcmuxError(
      'ERR_PROCESS_STATE',
      `${s.control.holder} already has control of session ${s.id}; they must release it first`,
    );
  }
  const since = Date.now();
  let released = false;
  const end = (reason: string) => {
    if (released) return;
    released = true;
    if (s.control === control) s.control = undefined;
    controlEvent(s, 'human_control_ended', holder, reason);
  };
  const control = { holder, since, end };
  s.control = control;
  controlEvent(s, 'human_control_started', holder);
  const typeIn = async (data: string) => {
    if (released) throw new ProcmuxError('ERR_PROCESS_STATE', `control of session ${s.id} was released`);
    if (typeof data !== 'string') throw invalidOption('input', 'a string', { value: data });
    await write(s, data, 'input', true, true);
  };
  return {
    holder,
    since,
    write: typeIn,
    release: () => end('released'),
    get released() {
      return released;
    },
  };
}

function controlEvent(
  s: SessionCore,
  type: 'human_control_started' | 'human_control_ended',
  holder: string,
  reason?: string,
): void {
  s.ctx.emit(sessionEvent(s, type, { reason: reason ?? `taken by ${holder}` }));
  s.watchers.emit({ type: 'control', holder: type === 'human_control_started' ? holder : null });
}

export async function asciicast(s: SessionCore): Promise<string> {
  await access(s);
  // A pipe session has no terminal; asciinema's default size replays it.
  const initial = s.initialTerminal ?? { columns: 80, rows: 24 };
  return s.transcript.record({
    id: s.id,
    command: s.command,
    args: s.args,
    startedAt: s.startedAt,
    columns: initial.columns,
    rows: initial.rows,
    pipe: s.stdioMode === 'pipe',
  });
}
