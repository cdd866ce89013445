import { randomBytes } from 'node:crypto';
import { ProcmuxError } from '@procmux/core-types';

/** Letters and digits that cannot be misread for one another (no 0/o, 1/l). */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** `proc_` and 7 characters: 12 in all, 32^7 ≈ 3.4e10 ids. */
const RANDOM_CHARS = 7;
/** Draws before giving up: a second collision in a row already means something is wrong. */
const MAX_DRAWS = 8;

/** A fresh candidate id: `proc_` and 7 characters of ALPHABET (≤ 12 characters). */
export function drawSessionId(random: (size: number) => Uint8Array = randomBytes): string {
  const bytes = random(RANDOM_CHARS);
  let id = 'proc_';
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}

/**
 * A short id not used in this workspace: not by a session this registry holds, nor by a
 * record of the durable store when there is one (ids outlive a restart there). Short enough
 * for a model to copy without slips; collisions are checked, never assumed away.
 */
export async function newSessionId(
  inUse: (id: string) => boolean,
  stored: ((id: string) => Promise<boolean>) | undefined,
  draw: () => string = drawSessionId,
): Promise<string> {
  for (let attempt = 0; attempt < MAX_DRAWS; attempt += 1) {
    const id = draw();
    if (inUse(id)) continue;
    if (stored && (await stored(id))) continue;
    // Checked again: another start may have taken it while the store answered.
    if (!inUse(id)) return id;
  }
  throw new ProcmuxError('ERR_PROCESS_LIMIT', `no unused session id after ${MAX_DRAWS} draws`);
}
