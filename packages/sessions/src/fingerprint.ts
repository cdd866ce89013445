import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of the JSON array [command, ...args]. The environment never enters it, so a
 * fingerprint can go into events, logs and durable records without leaking secrets.
 */
export function commandFingerprint(command: string, args: readonly string[] = []): string {
  return createHash('sha256')
    .update(JSON.stringify([command, ...args]))
    .digest('hex');
}
