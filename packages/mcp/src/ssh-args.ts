import { posix } from 'node:path';
import { invalidOption } from '@procmux/core-types';
import { CliUsageError, cliInteger } from './cli-usage.js';

/** `--ssh user@host[:port]` with its key and known_hosts files: every session runs there. */
export interface SshRequest {
  username: string;
  host: string;
  port: number;
  identityFile: string | undefined;
  knownHostsFile: string;
}

/**
 * Reads the --ssh options. The host key is always verified: --ssh-known-hosts is required (no
 * trust on first use). Without --ssh-identity the agent (SSH_AUTH_SOCK) offers the keys.
 * `--cwd` is a path on the remote host and must be absolute there.
 */
export function parseSshArgs(
  values: { ssh?: string; 'ssh-identity'?: string; 'ssh-known-hosts'?: string; cwd?: string },
  localPath: (path: string) => string,
): { ssh: SshRequest; cwd: string } | undefined {
  if (values.ssh === undefined) {
    for (const name of ['ssh-identity', 'ssh-known-hosts'] as const) {
      if (values[name] !== undefined) throw new CliUsageError(`--${name} needs --ssh`);
    }
    return undefined;
  }
  const match = /^([^@\s:]+)@([^@\s:[\]]+|\[[0-9a-fA-F:.]+\])(?::(\d+))?$/.exec(values.ssh);
  if (!match)
    throw CliUsageError.refusal(invalidOption('--ssh', 'user@host or user@host:port', { value: values.ssh }));
  const port =
    match[3] === undefined
      ? 22
      : cliInteger('--ssh', match[3], { min: 1, max: 65_535 }, 'user@host:port with a port from 1 to 65535');
  if (values['ssh-known-hosts'] === undefined) {
    throw new CliUsageError('--ssh needs --ssh-known-hosts FILE: the host key is always verified');
  }
  if (values.cwd === undefined || !posix.isAbsolute(values.cwd)) {
    throw new CliUsageError(
      '--ssh needs --cwd with an absolute path on the remote host (the workspace there)',
    );
  }
  return {
    ssh: {
      username: match[1]!,
      host: match[2]!.replace(/^\[|\]$/g, ''),
      port,
      identityFile: values['ssh-identity'] === undefined ? undefined : localPath(values['ssh-identity']),
      knownHostsFile: localPath(values['ssh-known-hosts']),
    },
    cwd: posix.normalize(values.cwd),
  };
}
