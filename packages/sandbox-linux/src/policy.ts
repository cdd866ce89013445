// What a sandboxed session may write, read and reach, resolved once from the host's options.
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { invalidOption, knownKeys, optionsObject } from '@procmux/core-types';

/** The host's choice (never a tool argument): what to allow beyond the default policy. */
export interface SandboxOptions {
  /** More writable paths (absolute, existing) beside the workspace and the private temp dir. */
  write?: readonly string[];
  /** `NAME` or `NAME:PORT` reachable through the sandbox's proxy; nothing else is. */
  allowDomains?: readonly string[];
  /** More paths to hide (reads refused) beside the user's secrets. */
  denyRead?: readonly string[];
}

export interface AllowedDomain {
  host: string;
  /** Any port when undefined. */
  port?: number;
}

/** The resolved policy, as `metadata().sandbox.policy` states it. */
export interface SandboxPolicy {
  /** Writable paths: the workspace first. Everything else is read-only. */
  write: string[];
  /** Hidden paths that exist on this host (reads refused). */
  denyRead: string[];
  allowDomains: AllowedDomain[];
  /** /tmp is a private, empty directory of each session. */
  tempDir: 'private';
  /** Only through the allow-list proxy; the sandbox has its own network namespace. */
  network: 'allow-list-proxy';
  /** Its own pid namespace: host processes are invisible and cannot be signalled. */
  pidNamespace: true;
}

/** The user's secrets, relative to HOME (issue 29's list plus browser profiles). */
export const SECRET_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  'snap/firefox',
  'snap/chromium',
];

export interface PolicyContext {
  /** Workspace root (resolved): always writable. */
  workspace: string;
  home: string | undefined;
  /** Host paths always hidden, e.g. procmux's own state dir. */
  hidden?: readonly string[];
}

/**
 * Resolves `options` into a policy; a relative or missing write path or a malformed domain is
 * ERR_INVALID_OPTION, never dropped.
 */
export function resolveSandboxPolicy(
  options: SandboxOptions | undefined,
  context: PolicyContext,
): SandboxPolicy {
  const given = optionsObject<SandboxOptions>(options, 'sandbox');
  knownKeys('sandbox', given, ['write', 'allowDomains', 'denyRead']);
  const write = [context.workspace];
  for (const path of pathList('sandbox.write', given.write)) {
    if (!existsSync(path)) throw invalidOption('sandbox.write', 'existing absolute paths', { value: path });
    write.push(realpathSync(path));
  }
  const secrets = context.home ? SECRET_PATHS.map((p) => join(context.home!, p)) : [];
  const denyRead = [...secrets, ...(context.hidden ?? []), ...pathList('sandbox.denyRead', given.denyRead)]
    .filter((path) => existsSync(path))
    .map((path) => realpathSync(path));
  return {
    write: [...new Set(write)],
    denyRead: [...new Set(denyRead)],
    allowDomains: domainList(given.allowDomains),
    tempDir: 'private',
    network: 'allow-list-proxy',
    pidNamespace: true,
  };
}

function pathList(option: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((p) => typeof p === 'string' && isAbsolute(p))) {
    throw invalidOption(option, 'an array of absolute paths', { value });
  }
  return value as string[];
}

const HOST =
  /^(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$/;

/** `NAME[:PORT]`, `*.NAME` for its subdomains; an IPv4 address is a name too. */
export function parseDomain(value: string): AllowedDomain {
  const match = /^([^:]+)(?::(\d{1,5}))?$/.exec(value);
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || !HOST.test(match[1]!) || (port !== undefined && (port < 1 || port > 65535))) {
    throw invalidOption('sandbox.allowDomains', 'host names as NAME or NAME:PORT (port 1 to 65535)', {
      value,
    });
  }
  return { host: match[1]!.toLowerCase(), ...(port !== undefined ? { port } : {}) };
}

function domainList(value: unknown): AllowedDomain[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw invalidOption('sandbox.allowDomains', 'an array of NAME or NAME:PORT', { value });
  return value.map((v) => parseDomain(typeof v === 'string' ? v : String(v)));
}

/** Whether the allow list lets `host:port` through. */
export function domainAllowed(allow: readonly AllowedDomain[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allow.some(
    (d) =>
      (d.port === undefined || d.port === port) &&
      (d.host === name || (d.host.startsWith('*.') && name.endsWith(d.host.slice(1)))),
  );
}
