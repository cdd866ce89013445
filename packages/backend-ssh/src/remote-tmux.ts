// Persisted sessions over SSH: @procmux/backend-tmux's remote backend (a private tmux server on
// the remote machine) with this connection as its host effect. Every tmux call, file read and
// tree kill is an exec on the connection; the log is one streamed `tail -f`.
import { createHash } from 'node:crypto';
import {
  createRemoteTmuxBackend,
  type RemoteStream,
  type RemoteTmuxBackend,
  type RemoteTmuxHost,
} from '@procmux/backend-tmux';
import type { SshBackend } from './backend.js';
import { remoteEnv } from './backend.js';
import { killerCommand } from './remote-scripts.js';

/**
 * The tmux backend on the remote host of `ssh`, its socket and session files under `dir`
 * there (default: `$HOME/.local/state/procmux/tmux-<16 hex of the workspace>`). Several hosts
 * connecting as the same user reach the same server: the one that adopts a session re-attaches
 * to it. ERR_PROCESS_UNSUPPORTED when the remote host has no tmux 3.3+.
 */
export async function createSshTmuxBackend(
  ssh: SshBackend,
  options: { workspace: string; dir?: string },
): Promise<RemoteTmuxBackend> {
  const host = sshTmuxHost(ssh);
  let dir = options.dir;
  if (dir === undefined) {
    const home = (await host.run('printf %s "$HOME"')).stdout;
    const hash = createHash('sha256').update(options.workspace).digest('hex').slice(0, 16);
    dir = `${home === '/' ? '' : home}/.local/state/procmux/tmux-${hash}`;
  }
  return createRemoteTmuxBackend(host, { dir, environment: (env) => remoteEnv(env, undefined) });
}

/** The connection as the effect the remote tmux backend runs on. */
export function sshTmuxHost(ssh: SshBackend): RemoteTmuxHost {
  const { connection } = ssh;
  const { host, port, username, killGraceMs } = connection.options;
  return {
    name: `${username}@${host}:${port}`,
    async run(command, input) {
      const channel = await connection.exec(command);
      return new Promise((resolve, reject) => {
        let stdout = '';
        let stderr = '';
        let code = 1;
        channel.setEncoding('utf8');
        channel.stderr.setEncoding('utf8');
        channel.on('data', (data: string) => {
          stdout += data;
        });
        channel.stderr.on('data', (data: string) => {
          stderr += data;
        });
        channel.on('exit', (exitCode: number | null) => {
          code = exitCode ?? 1;
        });
        channel.on('close', () => {
          if (connection.state === 'lost') reject(connection.lostCause ?? new Error('SSH connection lost'));
          else resolve({ stdout, stderr, code });
        });
        channel.end(input);
      });
    },
    async stream(command, onData): Promise<RemoteStream> {
      const channel = await connection.exec(command);
      channel.setEncoding('utf8');
      channel.stderr.resume();
      channel.on('data', (data: string) => onData(data));
      const done = new Promise<void>((resolve, reject) => {
        channel.on('close', () => {
          if (connection.state === 'lost') reject(connection.lostCause ?? new Error('SSH connection lost'));
          else resolve();
        });
      });
      done.catch(() => {});
      channel.end();
      return { done, close: () => channel.close() };
    },
    async killTree(pid, marker) {
      await connection.run(killerCommand(pid, marker, killGraceMs));
    },
  };
}
