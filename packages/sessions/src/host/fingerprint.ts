import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of the JSON array [command, ...args] for an executable, of the JSON object
 * { shell: [command, ...args] } for a shell line: the same text run both ways never shares
 * a fingerprint. The environment never enters it, so a fingerprint can go into events, logs
 * and durable records without leaking secrets.
 */
export function commandFingerprint(command: string, args: readonly string[] = [], shell = false): string {
  const argv = [command, ...args];
  return createHash('sha256')
    .update(JSON.stringify(shell ? { shell: argv } : argv))
    .digest('hex');
}
