import { type InputWait, pollsStdin } from '@procmux/sessions';
import type { OneShotInputPlan } from './one-shot-plan.js';
import type { ToolSession } from './types.js';

/** How often a one-shot is asked whether it waits for input (the kill follows within 1 s). */
const CHECK_MS = 100;

/**
 * Quiet this long and not seen waiting, a one-shot gets end of input if it may be reading it:
 * on Linux only when a process of it polls its stdin among other descriptors (an event loop,
 * e.g. Node's epoll, which the checks cannot read as waiting), so a command that is quiet
 * for a while and then reads (`sleep 3; read -p`) is still seen waiting; where the kernel
 * cannot be asked, always.
 */
export const QUIET_EOF_MS = 1_000;
/** A quiet command is asked whether it polls its input at most this often (a /proc walk each). */
const POLLS_CHECK_MS = 500;

/** What the watch asks the kernel; injected so the logic is tested on any platform. */
export interface OneShotInputEffects {
  /** Whether the tree of `pid` polls its stdin among other descriptors; null: cannot tell. */
  pollsInput(pid: number): Promise<boolean | null>;
  now(): number;
}

/** This host's effects (Linux /proc; elsewhere the kernel is not asked). */
export function hostOneShotEffects(platform: NodeJS.Platform = process.platform): OneShotInputEffects {
  return {
    now: () => Date.now(),
    pollsInput: (pid) => pollsStdin(pid, platform),
  };
}

export interface OneShotInputWatch {
  /** Resolves once the kernel says the command blocks reading its input (plan.stopOnKernelWait). */
  waiting: Promise<InputWait>;
  /** The guessed wait that ended the input (plan.endInputOnGuess), if one did. */
  guessed(): InputWait | undefined;
  stop(): void;
}

/**
 * Watches a one-shot's input as its plan says: resolves `waiting` when the kernel says it
 * blocks reading (a heuristic guess never stops a command: a paused progress line looks the
 * same); ends the input once on a guess (plan.endInputOnGuess) or after QUIET_EOF_MS of quiet
 * when the command may be reading it. A host session without checkInput is never stopped.
 */
export function watchOneShotInput(
  session: ToolSession,
  plan: OneShotInputPlan,
  fx: OneShotInputEffects = hostOneShotEffects(),
): OneShotInputWatch {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let guessed: InputWait | undefined;
  const waiting = new Promise<InputWait>((resolve) => {
    const check = session.checkInput;
    if (!check) return;
    let seenBytes = -1;
    let quietSince = fx.now();
    let ended = false;
    let pollsAskedAt = Number.NEGATIVE_INFINITY;
    const endInput = async () => {
      ended = true;
      await session.closeStdin().catch(() => {});
    };
    const tick = async () => {
      if (stopped || !session.live) return;
      const input = await check.call(session).catch(() => null);
      if (stopped) return;
      if (input?.confidence === 'kernel' && plan.stopOnKernelWait) return resolve(input);
      const bytes = session.metadata().totalBytes;
      if (bytes !== seenBytes) {
        seenBytes = bytes;
        quietSince = fx.now();
      }
      if (!ended && input?.confidence === 'heuristic' && plan.endInputOnGuess) {
        guessed = input;
        await endInput();
      } else if (
        !ended &&
        fx.now() - quietSince >= QUIET_EOF_MS &&
        fx.now() - pollsAskedAt >= POLLS_CHECK_MS
      ) {
        pollsAskedAt = fx.now();
        const pid = session.pid;
        const polls = plan.stopOnKernelWait && pid !== undefined ? await fx.pollsInput(pid) : null;
        if (stopped) return;
        if (polls !== false) await endInput();
      }
      timer = setTimeout(tick, CHECK_MS);
    };
    timer = setTimeout(tick, CHECK_MS);
  });
  return {
    waiting,
    guessed: () => guessed,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** What the one-shot result says when the command was stopped at a prompt. */
export function inputStopNote(input: InputWait): string {
  // A prompt written to /dev/tty (getpass, sudo, ssh) reaches stderr, since nobody types into
  // a one-shot's terminal; an empty prompt is a read with nothing printed before it.
  const at = input.fullScreen
    ? 'in a full-screen program'
    : input.prompt === ''
      ? 'with no prompt on its last line'
      : `at ${JSON.stringify(input.prompt)}`;
  const secret = input.echo ? '' : ' (input was not echoed: likely a password)';
  // A password is not for a command line; a program that asks one often reads /dev/tty anyway.
  const stdin = input.echo ? "on its stdin (`printf 'y\\n' | COMMAND`, `COMMAND < FILE`) or " : '';
  return (
    `procmux stopped it: it was waiting for input ${at}${secret}, and a one_shot has no one to answer. ` +
    `Rerun it with mode "session" to answer the prompt (process action=write / submit), or pass the answer ${stdin}another way (a flag, a file, an environment variable).`
  );
}

/** What the result says when a guessed prompt (no kernel to ask) was given end of input. */
export function guessedInputNote(input: InputWait): string {
  const secret = input.echo ? '' : ' (it looks like a password prompt)';
  const at = input.fullScreen ? 'in a full-screen program' : `at ${JSON.stringify(input.prompt)}`;
  return (
    `It seemed to wait for input ${at}${secret}, a guess from quiet output ` +
    '(this OS cannot be asked), so procmux gave it end of input. If it needed an answer, rerun it with mode "session" to answer the prompt.'
  );
}
