import type { InputConfidence, InputDetector, ProbeFacts } from './detector.js';

/** What metadata().input reports while a program waits for input. */
export interface InputWait {
  /** Epoch ms since which it has been seen waiting. */
  since: number;
  /** False when the terminal does not echo (a password prompt). */
  echo: boolean;
  /** The unfinished last line of the output: the prompt, maybe empty ('' when fullScreen). */
  prompt: string;
  confidence: InputConfidence;
  /**
   * Set while a full-screen program (vim, less, top) holds the terminal's alternate screen:
   * the cursor's row is then the program's own text (a line of the file being edited), not a
   * prompt, so none is quoted. Absent otherwise.
   */
  fullScreen?: true;
}

/** Output quiet this long before a check: a prompt is printed, then the read comes at once. */
export const QUIET_BEFORE_CHECK_MS = 15;
/** While someone waits, checks repeat this often (a read may start long after the last output). */
export const CHECK_EVERY_MS = 50;
/** metadata() asking keeps the checks going this long, so a caller polling metadata sees changes. */
export const ASK_WINDOW_MS = 2_000;

/**
 * Keeps one session's waiting-for-input state. It costs nothing while nobody waits or asks: no
 * timer, no /proc read. While a poll, a wait_for or a recent metadata() call wants to know, it
 * checks once the output has been quiet for a moment and then on a short timer.
 */
export class InputWatch {
  #state: InputWait | null = null;
  #demand = 0;
  #askedUntil = 0;
  #lastOutputAt = Date.now();
  #lastInputAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<InputWait | null> | undefined;
  #stopped = false;
  /** Writes so far; a state found before the latest write is not reported until re-checked. */
  #writes = 0;
  #checkedWrites = 0;

  constructor(
    private readonly detect: InputDetector,
    /** Facts for a check; undefined when the session cannot wait (ended, stdin closed). */
    private readonly facts: (
      quietMs: number,
    ) => Omit<ProbeFacts, 'quietMs'> | undefined | Promise<Omit<ProbeFacts, 'quietMs'> | undefined>,
    private readonly onChange: (state: InputWait | null, previous: InputWait | null) => void,
  ) {}

  /** Null right after input was written, until a check confirms the program waits again. */
  get state(): InputWait | null {
    return this.#checkedWrites === this.#writes ? this.#state : null;
  }

  /** Output arrived: check again once it pauses, if anyone wants to know. */
  noteOutput(now = Date.now()): void {
    this.#lastOutputAt = now;
    if (this.#wanted()) this.#schedule(QUIET_BEFORE_CHECK_MS);
  }

  /** Input was written: the wait may be over. */
  noteInput(): void {
    this.#writes++;
    this.#lastInputAt = Date.now();
    if (this.#wanted() || this.#state) this.#schedule(QUIET_BEFORE_CHECK_MS);
  }

  /** Someone waits (a poll, a wait_for): checks run until the returned release is called. */
  want(): () => void {
    this.#demand++;
    this.#schedule(0);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#demand--;
      if (!this.#wanted()) this.#clearTimer();
    };
  }

  /** metadata() asked: keep checking for a while, starting now. */
  ask(): void {
    const fresh = Date.now() >= this.#askedUntil;
    this.#askedUntil = Date.now() + ASK_WINDOW_MS;
    if (fresh) this.#schedule(0);
  }

  /** A fresh answer now. */
  check(): Promise<InputWait | null> {
    if (this.#running) {
      return this.#running.then(() => this.check());
    }
    this.#running = this.#probe().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** The session ended: no more checks, no state. */
  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#set(null);
  }

  async #probe(): Promise<InputWait | null> {
    if (this.#stopped) return null;
    const outputAt = this.#lastOutputAt;
    const writes = this.#writes;
    const quietMs = Date.now() - outputAt;
    const idleMs = Math.min(quietMs, Date.now() - this.#lastInputAt);
    const facts = await this.facts(quietMs);
    if (this.#stopped) return null;
    if (!facts) {
      this.#set(null);
      return null;
    }
    let result: Awaited<ReturnType<InputDetector>>;
    try {
      result = await this.detect({ ...facts, quietMs, idleMs });
    } catch {
      return this.state;
    }
    if (this.#stopped) return null;
    // Output that arrived during the check may have been the program moving on. The writes stay
    // unconfirmed: the state held is from before them (IPython redrawing its line after Enter
    // showed the prompt just answered as current).
    if (this.#lastOutputAt !== outputAt) return this.state;
    this.#checkedWrites = writes;
    if (!result.waiting) this.#set(null);
    else {
      const previous = this.#state;
      const same =
        previous !== null &&
        previous.echo === result.echo &&
        previous.prompt === facts.prompt &&
        previous.fullScreen === facts.fullScreen &&
        previous.confidence === result.confidence;
      if (!same) {
        this.#set({
          since: previous?.since ?? Date.now(),
          echo: result.echo,
          prompt: facts.prompt,
          confidence: result.confidence,
          ...(facts.fullScreen ? { fullScreen: true as const } : {}),
        });
      }
    }
    return this.state;
  }

  #set(state: InputWait | null): void {
    const was = this.#state;
    this.#state = state;
    if (was !== state) this.onChange(state, was);
  }

  #wanted(): boolean {
    return !this.#stopped && (this.#demand > 0 || Date.now() < this.#askedUntil);
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#clearTimer();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.check().then(() => {
        if (this.#wanted() && !this.#timer) this.#schedule(this.#nextDelay());
      });
    }, delayMs);
    this.#timer.unref?.();
  }

  /** Next check: the regular tick, but not before the output has been quiet for a moment. */
  #nextDelay(): number {
    const quietFor = Date.now() - this.#lastOutputAt;
    return Math.max(CHECK_EVERY_MS, QUIET_BEFORE_CHECK_MS - quietFor);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
