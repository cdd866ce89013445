import type { InputWait } from '@procmux/sessions';
import type { ToolSession } from './types.js';

/** How often a one-shot is asked whether it waits for input (the kill follows within 1 s). */
const CHECK_MS = 100;

/**
 * Quiet this long and not seen waiting: the one-shot gets end-of-file, as it would where the
 * kernel cannot tell. A program that waits in a way the checks do not read as waiting (an
 * event loop polling stdin with other descriptors, e.g. Node's epoll) would otherwise sit
 * until the no-output timeout, which is the hang this exists to prevent.
 */
export const QUIET_EOF_MS = 1_000;

/**
 * Resolves with the input wait once a one-shot's command blocks reading its input, as the
 * kernel says (a heuristic guess never stops a command: a paused progress line looks the
 * same). A command quiet for QUIET_EOF_MS without being seen waiting gets end-of-file.
 * `stop()` ends the watch. A host session without checkInput is never stopped.
 */
export function watchOneShotInput(session: ToolSession): { waiting: Promise<InputWait>; stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const waiting = new Promise<InputWait>((resolve) => {
    const check = session.checkInput;
    if (!check) return;
    let seenBytes = -1;
    let quietSince = Date.now();
    let eofGiven = false;
    const tick = async () => {
      if (stopped || !session.live) return;
      const input = await check.call(session).catch(() => null);
      if (stopped) return;
      if (input?.confidence === 'kernel') return resolve(input);
      const bytes = session.metadata().totalBytes;
      if (bytes !== seenBytes) {
        seenBytes = bytes;
        quietSince = Date.now();
      } else if (!eofGiven && Date.now() - quietSince >= QUIET_EOF_MS) {
        eofGiven = true;
        await session.closeStdin().catch(() => {});
      }
      timer = setTimeout(tick, CHECK_MS);
    };
    timer = setTimeout(tick, CHECK_MS);
  });
  return {
    waiting,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** What the one-shot result says when the command was stopped at a prompt. */
export function inputStopNote(input: InputWait): string {
  // On pipes, programs that prompt only on a terminal (bash read -p, many CLIs) print nothing.
  const at =
    input.prompt === ''
      ? 'with no prompt on its last line (some programs print their prompt only to a terminal)'
      : `at ${JSON.stringify(input.prompt)}`;
  const secret = input.echo ? '' : ' (input was not echoed: likely a password)';
  return (
    `procmux stopped it: it was waiting for input ${at}${secret}, and a one_shot has no one to answer. ` +
    'Rerun it with mode "session" to answer the prompt (process action=write / submit), or pass the answer another way (a flag, a file, an environment variable).'
  );
}
