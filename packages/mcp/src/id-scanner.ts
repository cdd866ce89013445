// Finds the top-level "id" of a JSON-RPC message that is too big to keep, reading its bytes
// once as they stream past, so the error for it can carry the id its client waits on.

/** A JSON-RPC id as the scanner found it, or null when the message had none it could read. */
export type RecoveredId = string | number | null;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const COLON = 0x3a;
const COMMA = 0x2c;
/** Longest id kept; a longer one is reported as null rather than held in memory. */
const MAX_ID_BYTES = 256;

type Phase = 'key' | 'colon' | 'value' | 'other';

/**
 * A streaming scanner over one line of JSON: tracks strings and nesting only, and remembers
 * the value of the "id" key of the outermost object when it is a number or a short string
 * without escapes. Memory: at most MAX_ID_BYTES, whatever the line's size.
 */
export class IdScanner {
  #depth = 0;
  #inString = false;
  #escape = false;
  /** What the next token at depth 1 is: a key, the colon after "id", its value, or anything. */
  #phase: Phase = 'other';
  /** Bytes of the string (key or id) being captured at depth 1, or undefined when not capturing. */
  #capture: number[] | undefined;
  #captureIsKey = false;
  #number: number[] | undefined;
  #id: RecoveredId = null;
  #found = false;

  get id(): RecoveredId {
    return this.#id;
  }

  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) this.#byte(bytes[i]!);
  }

  /** Call at the end of the line: a number still being read ends there. */
  end(): void {
    this.#endNumber();
  }

  #byte(b: number): void {
    if (this.#inString) {
      if (this.#escape) {
        this.#escape = false;
        // An escaped id is rare; give up on capturing it rather than decode escapes.
        if (this.#capture && !this.#captureIsKey) this.#capture = undefined;
        else if (this.#capture) this.#capture.push(BACKSLASH, b);
      } else if (b === BACKSLASH) this.#escape = true;
      else if (b === QUOTE) this.#endString();
      else if (this.#capture) {
        if (this.#capture.length < MAX_ID_BYTES) this.#capture.push(b);
        else this.#capture = undefined;
      }
      return;
    }
    if (this.#number) {
      if ((b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45) {
        if (this.#number.length < 32) this.#number.push(b);
        return;
      }
      this.#endNumber();
    }
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) return;
    if (b === QUOTE) {
      this.#inString = true;
      const atTop = this.#depth === 1;
      if (atTop && this.#phase === 'key') {
        this.#capture = [];
        this.#captureIsKey = true;
      } else if (atTop && this.#phase === 'value' && !this.#found) {
        this.#capture = [];
        this.#captureIsKey = false;
      } else {
        this.#capture = undefined;
        if (atTop) this.#phase = 'other';
      }
      return;
    }
    if (OPEN.has(b)) {
      this.#depth += 1;
      if (this.#depth === 1) this.#phase = b === 0x7b ? 'key' : 'other';
      else if (this.#depth === 2) this.#phase = 'other';
      return;
    }
    if (CLOSE.has(b)) {
      this.#depth = Math.max(0, this.#depth - 1);
      return;
    }
    if (this.#depth !== 1) return;
    if (b === COMMA) this.#phase = 'key';
    else if (b === COLON) this.#phase = this.#phase === 'colon' ? 'value' : 'other';
    else if (this.#phase === 'value' && !this.#found && (b === 0x2d || (b >= 0x30 && b <= 0x39)))
      this.#number = [b];
    else this.#phase = 'other';
  }

  #endString(): void {
    this.#inString = false;
    const captured = this.#capture;
    this.#capture = undefined;
    if (this.#depth !== 1) return;
    if (this.#captureIsKey) {
      this.#phase = captured && Buffer.from(captured).toString('utf8') === 'id' ? 'colon' : 'other';
      return;
    }
    if (this.#phase === 'value') {
      if (captured && !this.#found) {
        this.#id = Buffer.from(captured).toString('utf8');
        this.#found = true;
      }
      this.#phase = 'other';
    }
  }

  #endNumber(): void {
    const digits = this.#number;
    if (!digits) return;
    this.#number = undefined;
    const n = Number(Buffer.from(digits).toString('latin1'));
    if (!this.#found && Number.isFinite(n)) {
      this.#id = n;
      this.#found = true;
    }
    this.#phase = 'other';
  }
}
