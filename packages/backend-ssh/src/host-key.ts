import { createHash, createHmac } from 'node:crypto';

/** `SHA256:<base64, no padding>` of a public key blob, as `ssh-keygen -l` prints it. */
export function fingerprintOf(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** How known_hosts names a host: `host` on port 22, `[host]:port` otherwise. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

export type HostKeyVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks a server's key against known_hosts text: plain and hashed (`|1|salt|hash`) host
 * fields, comma lists, `@revoked` lines. Wildcard patterns and `@cert-authority` lines are not
 * understood and never match (an unknown key is refused, never accepted).
 */
export function checkKnownHosts(text: string, host: string, port: number, key: Buffer): HostKeyVerdict {
  const name = knownHostsName(host, port);
  const blob = key.toString('base64');
  let named = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    let marker: string | undefined;
    if (fields[0]?.startsWith('@')) marker = fields.shift();
    const [hosts, , keyData] = fields;
    if (hosts === undefined || keyData === undefined) continue;
    if (!hosts.split(',').some((pattern) => hostMatches(pattern, name))) continue;
    if (marker === '@revoked') {
      if (keyData === blob) return { ok: false, reason: `the host key of ${name} is marked @revoked` };
      continue;
    }
    if (marker !== undefined) continue;
    named = true;
    if (keyData === blob) return { ok: true };
  }
  return {
    ok: false,
    reason: named
      ? `the host key of ${name} (${fingerprintOf(key)}) does not match known_hosts: refusing (possible man in the middle)`
      : `${name} is not in known_hosts (its key is ${fingerprintOf(key)}): add it, or pin the fingerprint`,
  };
}

function hostMatches(pattern: string, name: string): boolean {
  if (pattern.startsWith('|1|')) {
    const [, , salt, hash] = pattern.split('|');
    if (salt === undefined || hash === undefined) return false;
    const digest = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
    return digest === hash;
  }
  return pattern === name;
}

/** Compares a key with a pinned `SHA256:...` fingerprint. */
export function checkFingerprint(pinned: string, host: string, port: number, key: Buffer): HostKeyVerdict {
  const actual = fingerprintOf(key);
  if (actual === pinned.replace(/=+$/, '')) return { ok: true };
  return {
    ok: false,
    reason: `the host key of ${knownHostsName(host, port)} is ${actual}, not the pinned ${pinned}: refusing`,
  };
}
