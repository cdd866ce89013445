// What a session gives back: history pages, poll deltas, log lines, the transcript, the
// rendered screen, and the end. Reads work for the whole life of the record.
import { integerOption, ProcmuxError } from '@procmux/core-types';
import type { OutputBudgetResult, TranscriptExcerptRequest } from '@procmux/transcript';
import type { LogResult, OutputPage, PollResult, WaitOutcome } from '../types.js';
import type { SessionCore } from './core.js';
import { noteDelivered } from './delivered.js';
import { access } from './guards.js';

export async function output(
  s: SessionCore,
  options: { cursor?: number; maxBytes?: number } = {},
): Promise<OutputPage> {
  await access(s);
  const { maxOutputChunkBytes } = s.ctx.limits;
  const maxBytes = integerOption('maxBytes', options.maxBytes ?? undefined, {
    min: 1,
    max: maxOutputChunkBytes,
    default: maxOutputChunkBytes,
  });
  const cursor = integerOption('cursor', options.cursor ?? undefined, {
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    default: 0,
  });
  return s.transcript.log.read({ cursor, maxBytes });
}

export async function poll(s: SessionCore, options: { timeoutMs?: number } = {}): Promise<PollResult> {
  await access(s);
  const timeoutMs = integerOption('timeoutMs', options.timeoutMs ?? undefined, {
    min: 0,
    max: s.ctx.limits.maxLifetimeMs,
    default: 0,
  });
  const deadline = Date.now() + timeoutMs;
  // A re-attached session replaying what an earlier host delivered has nothing new until it is through.
  if (s.replaying && timeoutMs > 0) await within(s.replayed, timeoutMs);
  const left = Math.max(0, deadline - Date.now());
  if (!s.pending && s.live && left > 0) {
    // A poll wants to hear when the program starts waiting for input, so checks run meanwhile.
    const release = s.input.want();
    try {
      await s.waiters.next(left);
    } finally {
      release();
    }
  }
  return collect(s);
}

function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(
    () => clearTimeout(timer),
  );
}

/**
 * Lets the screen parse everything fed so far, again while output keeps arriving (at most 3
 * rounds): the delta rendered next then covers exactly the bytes recorded as delivered, so a
 * re-attaching host repeats none of it. Only for sessions a backend can re-attach.
 */
async function parsedAll(s: SessionCore): Promise<void> {
  for (let round = 0; round < 3 && s.screen; round++) {
    const before = s.transcript.log.totalBytes;
    await s.screen.flush().catch(() => {});
    if (s.transcript.log.totalBytes === before) return;
  }
}

async function collect(s: SessionCore): Promise<PollResult> {
  if (s.replaying) {
    // Output an earlier host's poll returned is being replayed: nothing new yet.
    return {
      stdout: '',
      stderr: '',
      state: s.state,
      exitCode: s.exitCode,
      signal: s.signal,
      droppedBytes: 0,
    };
  }
  if (s.emulated && s.screen && s.ctx.persist && s.adapter?.handle.ref !== undefined) {
    await parsedAll(s);
  }
  s.pending = false;
  const drained = s.transcript.log.drain();
  // The screen's delta below covers at least this much (it renders once all of it is parsed);
  // exactly this much when parsedAll() found the screen caught up (nothing can arrive between).
  const deliveredTo = s.transcript.log.totalBytes;
  const ended = !s.live;
  let stdout: string;
  let stderr: string;
  let line = { stdout: '', stderr: '' };
  let fullScreen = false;
  let redrawn = 0;
  let read = 0;
  if (s.emulated) {
    await s.retiring;
    const final = s.finalScreen;
    if (final) {
      stdout = final.delta;
      redrawn = final.redrawn;
      final.delta = '';
      final.redrawn = 0;
    } else {
      const changes = s.screen ? await s.screen.renderChanges() : { text: '', redrawn: 0 };
      stdout = changes.text;
      redrawn = changes.redrawn;
      // Read in the same turn as the delta, so both describe the same parsed output.
      line = { stdout: s.screen?.cursorLine?.() ?? '', stderr: '' };
      fullScreen = s.screen?.modes.alternateScreen === true;
    }
    stderr = '';
    // Numbered in the order the screen was read: concurrent polls resume in that order.
    if (stdout !== '') read = ++s.stdoutReads;
  } else {
    stdout = s.transcript.live.stdout.read(drained.stdout, ended);
    stderr = s.transcript.live.stderr.read(drained.stderr, ended);
    line = { stdout: s.transcript.live.stdout.openLine, stderr: s.transcript.live.stderr.openLine };
  }
  noteDelivered(s, deliveredTo);
  return {
    stdout,
    stderr,
    state: s.state,
    exitCode: s.exitCode,
    signal: s.signal,
    droppedBytes: drained.droppedBytes,
    // The part of the line that stood before the latest input is not the program's reply.
    currentLine: {
      stdout: line.stdout.slice(s.staleChars.stdout),
      stderr: line.stderr.slice(s.staleChars.stderr),
    },
    ...(fullScreen ? { fullScreen: true as const } : {}),
    ...(redrawn > 0 ? { redrawnLines: redrawn } : {}),
    ...(read > 0 ? { stdoutRead: read } : {}),
  };
}

export async function log(
  s: SessionCore,
  options: { offset?: number; limit?: number } = {},
): Promise<LogResult> {
  await access(s);
  return s.transcript.page(options, s.ctx.limits.maxOutputChunkBytes);
}

export async function* transcript(s: SessionCore): AsyncGenerator<string> {
  await access(s);
  yield* s.transcript.chunks(s.ctx.limits.maxOutputChunkBytes);
}

export async function excerpt(
  s: SessionCore,
  request: TranscriptExcerptRequest,
): Promise<OutputBudgetResult> {
  await access(s);
  return s.transcript.excerpt(request, s.ctx.limits.maxOutputChunkBytes);
}

export async function screen(s: SessionCore, options: { scrollback?: boolean } = {}): Promise<string> {
  await access(s);
  if (!s.emulated) {
    throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', 'screen() needs a PTY session with a terminal screen');
  }
  // From the live screen, or the final one an ended session kept.
  await s.retiring;
  const scrollback = options.scrollback !== false;
  if (s.finalScreen) return scrollback ? s.finalScreen.full : s.finalScreen.screen;
  return scrollback ? s.screen!.renderFull() : s.screen!.renderScreen();
}

export async function wait(s: SessionCore, options: { timeoutMs?: number } = {}): Promise<WaitOutcome> {
  await access(s);
  const timeoutMs =
    options.timeoutMs === undefined
      ? undefined
      : integerOption('timeoutMs', options.timeoutMs ?? undefined, {
          min: 0,
          max: Number.MAX_SAFE_INTEGER,
          default: 0,
        });
  if (s.live) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      s.settled,
      ...(timeoutMs === undefined ? [] : [new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]),
    ]);
    clearTimeout(timer);
  }
  // An ended session's durable record is written before wait() reports the end.
  if (!s.live) await s.settled;
  if (s.adapter?.lost && s.state === 'unknown') {
    const reason = s.endReason ?? 'the process backend lost this session';
    // A backend that said so itself (SSH: "…; its outcome is unknown (…)") is not told twice.
    throw new ProcmuxError(
      'ERR_PROCESS_PTY_BACKEND',
      /its outcome is unknown/.test(reason) ? reason : `${reason}; its outcome is unknown`,
      {
        details: { sessionId: s.id },
      },
    );
  }
  return { exitCode: s.exitCode, signal: s.signal, state: s.state };
}
