// Persisted sessions over SSH: @procmux/backend-tmux's remote backend (a private tmux server on
// the remote machine) with this connection as its host effect. Every tmux call and file read
// or write goes to the connection's one long-lived shell; a tree kill is an exec of its own (it
// may take the kill grace), and each session's log is one streamed `tail -f`.
import { createHash } from 'node:crypto';
import {
  createRemoteTmuxBackend,
  type RemoteStream,
  type RemoteTmuxBackend,
  type RemoteTmuxHost,
  type RemoteTmuxOptions,
} from '@procmux/backend-tmux';
import type { SshBackend } from './backend.js';
import { remoteEnv } from './backend.js';
import { killerCommand } from './remote-scripts.js';

/**
 * The tmux backend on the remote host of `ssh`, its socket and session files under `dir`
 * there (default: `$HOME/.local/state/procmux/tmux-<16 hex of the workspace>`). Several hosts
 * connecting as the same user reach the same server: the one that adopts a session re-attaches
 * to it. ERR_PROCESS_UNSUPPORTED when the remote host has no tmux 3.3+. Each pane is held as
 * `containment` says (default: the SSH backend's own `containment`).
 */
export async function createSshTmuxBackend(
  ssh: SshBackend,
  options: { workspace: string; dir?: string; containment?: RemoteTmuxOptions['containment'] },
): Promise<RemoteTmuxBackend> {
  const host = sshTmuxHost(ssh);
  let dir = options.dir;
  if (dir === undefined) {
    const home = (await host.run('printf %s "$HOME"')).stdout;
    const hash = createHash('sha256').update(options.workspace).digest('hex').slice(0, 16);
    dir = `${home === '/' ? '' : home}/.local/state/procmux/tmux-${hash}`;
  }
  return createRemoteTmuxBackend(host, {
    dir,
    environment: (env) => remoteEnv(env, undefined),
    containment: options.containment ?? ssh.connection.options.containment,
  });
}

/** The connection as the effect the remote tmux backend runs on. */
export function sshTmuxHost(ssh: SshBackend): RemoteTmuxHost {
  const { connection } = ssh;
  const { host, port, username, killGraceMs } = connection.options;
  return {
    name: `${username}@${host}:${port}`,
    // Every tmux call, file read and write goes to the connection's one shell (shell-channel.ts):
    // an exec each paid the login shell's rc per call (0.7–1.1 s here) on the adoption path.
    run: (command, input) => connection.runShell(command, input),
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
    async killTree(pid, marker, cgroup) {
      await connection.run(killerCommand(pid, marker, killGraceMs, cgroup));
    },
  };
}
