import { invalidOption, ProcmuxError } from '@procmux/core-types';

/** Who holds a session's keyboard instead of the model, since when. */
export interface HumanControlState {
  /** A name the view chose for the person (never a secret). */
  holder: string;
  /** Epoch ms. */
  since: number;
}

/**
 * A person's hold on one session's keyboard, from ProcessSession.takeControl(). While it is
 * held, input from every other path (input, paste, sendKeys, submit, closeStdin, resize) is
 * ERR_PROCESS_STATE. What goes through write() reaches the program and nothing else: it is
 * not stored, logged, recorded or put in an event.
 */
export interface HumanControlLease extends HumanControlState {
  /** Types `data` (raw terminal input, as a keyboard sends it) into the session. */
  write(data: string): Promise<void>;
  /** Gives the keyboard back to the model. Idempotent. */
  release(): void;
  /** True once released, by release() or because the session ended. */
  readonly released: boolean;
}

/** The error the model's input gets while a person has control. */
export function humanControlError(sessionId: string, control: HumanControlState): ProcmuxError {
  return new ProcmuxError(
    'ERR_PROCESS_STATE',
    `a person (${control.holder}) has control of session ${sessionId}; input from the model is ` +
      'refused until they release it. Poll to watch what they do, or ask them.',
    { details: { sessionId } },
  );
}

export function holderName(holder: unknown): string {
  if (typeof holder !== 'string' || holder === '' || holder.length > 100 || /[\0-\x1f]/.test(holder)) {
    throw invalidOption('holder', 'a printable name of 1 to 100 characters (takeControl needs { holder })', {
      value: holder,
      max: 100,
    });
  }
  return holder;
}
