// A one_shot's hidden prompt (a password) answered by a person instead of stopping the
// command: the host (MCP URL elicitation of a view page) asks; the answer is typed into the
// program's terminal and goes nowhere else: not into the reply, the log, a record or an event.
import type { InputWait } from '@procmux/sessions';
import { type OneShotInputWatch, watchOneShotInput } from './one-shot-input.js';
import type { OneShotInputPlan } from './one-shot-plan.js';
import type { PersonOutcome, PersonRequest, ToolSession } from './types.js';

/**
 * Asks the host's person for the answer to `wait`; resolves 'timeout' when the one_shot's
 * time runs out first, and aborts the ask when the command ends or the call is cancelled.
 */
export async function askPerson(
  ask: (request: PersonRequest) => Promise<PersonOutcome>,
  session: ToolSession,
  wait: InputWait,
  limits: { timeoutMs: number; signal: AbortSignal | undefined; ended: Promise<unknown> },
): Promise<PersonOutcome> {
  if (limits.timeoutMs <= 0) return 'timeout';
  const controller = new AbortController();
  const stop = () => controller.abort();
  limits.signal?.addEventListener('abort', stop, { once: true });
  void limits.ended.then(stop, stop);
  const timer = setTimeout(stop, limits.timeoutMs);
  try {
    const outcome = ask({
      sessionId: session.id,
      command: session.command,
      prompt: wait.prompt,
      // Enter as a person's key sends it: a carriage return (the terminal makes it a newline).
      deliver: (secret) => session.input(`${secret}\r`),
      signal: controller.signal,
      timeoutMs: limits.timeoutMs,
    });
    const aborted = new Promise<PersonOutcome>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve('timeout'), { once: true });
    });
    return await Promise.race([outcome.catch((): PersonOutcome => 'declined'), aborted]);
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', stop);
    controller.abort();
  }
}

/** How often a wait still showing the answered prompt is looked at again. */
const RECHECK_MS = 100;

/**
 * The next wait that is a new prompt, not the answered one still seen before the program read
 * its answer: one with new output since, or one that began after the answer.
 */
export function newWait(
  session: ToolSession,
  plan: OneShotInputPlan,
  after: { at: number; bytes: number },
): { waiting: Promise<InputWait>; stop(): void } {
  let stopped = false;
  let watch: OneShotInputWatch | undefined;
  const waiting = (async () => {
    for (;;) {
      watch = watchOneShotInput(session, plan);
      const wait = await watch.waiting;
      watch.stop();
      if (wait.since > after.at || session.metadata().totalBytes > after.bytes) return wait;
      await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
      if (stopped) return new Promise<InputWait>(() => {});
    }
  })();
  return {
    waiting,
    stop() {
      stopped = true;
      watch?.stop();
    },
  };
}

/** What the reply says when a person answered: that they did, never what they typed. */
export function personNote(answered: readonly InputWait[]): string | undefined {
  if (answered.length === 0) return undefined;
  const prompts = answered.map((w) => (w.prompt === '' ? 'a prompt with no text' : JSON.stringify(w.prompt)));
  return (
    `A person answered ${answered.length === 1 ? 'its hidden prompt' : `its ${answered.length} hidden prompts`} ` +
    `(${prompts.join(', ')}) through the view; what they typed went to the program only and is not shown.`
  );
}
