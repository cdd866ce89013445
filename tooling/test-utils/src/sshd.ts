// A real OpenSSH server on 127.0.0.1 for the SSH backend's tests and benches: generated host and
// client keys and config in a temp dir, run as the current user, stopped however the run ends.
// The remote user's HOME is a fresh dir of its own: the shell sshd starts sources ~/.bashrc, and
// the real one is not the tests' (this machine's runs `pyenv rehash`, whose lock file, left by a
// shell killed mid-rehash, stalled every later remote shell for 60 s).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { descendantsOf, isAlive, processTable } from './process-table.js';

export const SSHD_PATH = '/usr/sbin/sshd';

export interface TestSshd {
  host: '127.0.0.1';
  port: number;
  username: string;
  /** Private key of the client (ed25519, no passphrase). */
  identityFile: string;
  /** A known_hosts file naming this server's host key for [127.0.0.1]:port. */
  knownHostsFile: string;
  /** The host key's fingerprint as `ssh-keygen -l` prints it: `SHA256:...`. */
  fingerprint: string;
  /** A second client key that the server does not accept. */
  wrongIdentityFile: string;
  dir: string;
  /** HOME of the remote user's sessions: empty at start, removed by `stop()`. */
  home: string;
  /** The listening sshd's pid (its per-connection processes are its children). */
  pid: number;
  /** Arguments for OpenSSH's `ssh` client to reach this server non-interactively. */
  sshArgs(): string[];
  /** Stops sshd and every process it started (tmux servers under `home` too), removes the temp dir; idempotent. */
  stop(): Promise<void>;
}

/** Why the sshd tests cannot run here, or undefined when they can. */
export function sshdMissingReason(): string | undefined {
  if (existsSync(SSHD_PATH)) return undefined;
  return `${SSHD_PATH} is missing (Debian: apt-get install -y openssh-server)`;
}

// Each running server with the pid of its guard (the leader of its process group).
const running = new Map<TestSshd, number>();
let exitHook = false;

/** Starts sshd on a free loopback port and resolves once it answers with its SSH banner. */
export async function startTestSshd(): Promise<TestSshd> {
  const reason = sshdMissingReason();
  if (reason !== undefined) throw new Error(reason);
  const dir = mkdtempSync(join(tmpdir(), 'procmux-sshd-'));
  const key = (name: string) => {
    const file = join(dir, name);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
    return file;
  };
  const hostKey = key('host_ed25519');
  const identityFile = key('client_ed25519');
  const wrongIdentityFile = key('wrong_ed25519');
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${identityFile}.pub`));
  const home = join(dir, 'home');
  mkdirSync(home);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${hostKey}.pub`], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  // Privilege separation needs its empty directory when sshd starts as root.
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      // The temp dir is not owned the way StrictModes wants for a home directory.
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'X11Forwarding no',
      'AllowTcpForwarding no',
      'PrintMotd no',
      'PrintLastLog no',
      // Every session is a channel, and so is every remote kill.
      'MaxSessions 100',
      'MaxStartups 100',
      'LogLevel ERROR',
      `SetEnv HOME=${home}`,
      '',
    ].join('\n'),
  );
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    // sh holds sshd and a pipe from us: when this process dies however, the pipe closes and sh
    // stops sshd and removes the temp dir.
    const child = spawn(
      'sh',
      [
        '-c',
        `"${SSHD_PATH}" -D -e -f "$1" -p "$2" & pid=$!; cat >/dev/null; kill -TERM $pid 2>/dev/null; wait $pid; rm -rf "$3"`,
        'sshd-guard',
        config,
        String(port),
        dir,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'], detached: true },
    );
    let log = '';
    child.stderr!.on('data', (data: Buffer) => {
      log += data.toString();
    });
    const ok = await waitForBanner(port, child, 10_000);
    if (!ok) {
      stopGuard(child);
      if (attempt < 2 && !/fatal|error/i.test(log)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`sshd did not start on 127.0.0.1:${port}: ${log.trim() || 'no output'}`);
    }
    const pid = Number(readFileSync(join(dir, 'sshd.pid'), 'utf8').trim());
    writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${readFileSync(`${hostKey}.pub`, 'utf8')}`);
    let stopped: Promise<void> | undefined;
    const server: TestSshd = {
      host: '127.0.0.1',
      port,
      username: userInfo().username,
      identityFile,
      knownHostsFile: join(dir, 'known_hosts'),
      fingerprint,
      wrongIdentityFile,
      dir,
      home,
      pid,
      sshArgs: () => [
        '-i',
        identityFile,
        '-p',
        String(port),
        '-o',
        `UserKnownHostsFile=${join(dir, 'known_hosts')}`,
        '-o',
        'StrictHostKeyChecking=yes',
        '-o',
        'BatchMode=yes',
        '-o',
        'IdentitiesOnly=yes',
        '-l',
        userInfo().username,
        '127.0.0.1',
      ],
      stop() {
        stopped ??= (async () => {
          running.delete(server);
          killServedProcesses(child.pid!);
          stopGuard(child);
          await new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) resolve();
            else child.once('exit', () => resolve());
          });
          await endNaming(home);
          rmSync(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
    running.set(server, child.pid!);
    if (!exitHook) {
      exitHook = true;
      // Synchronous last line: whatever ends this process, no sshd stays behind.
      process.once('exit', () => {
        for (const [server, guard] of running) {
          killServedProcesses(guard);
          for (const { pid } of processTable().filter((p) => p.command.includes(server.home)))
            signal(pid, 'SIGKILL');
          try {
            process.kill(-guard, 'SIGKILL');
          } catch {}
        }
      });
    }
    return server;
  }
}

// Everything under the guard: the listener, its per-connection processes and their sessions.
function killServedProcesses(rootPid: number): void {
  for (const info of descendantsOf(rootPid, processTable())) {
    try {
      process.kill(info.pid, 'SIGKILL');
    } catch {}
  }
}

/**
 * Ends what daemonized out of sshd's tree (a remote tmux server: its `-S` socket path is under
 * `home`), found by its command line, not by its socket: the guard may have removed the dir
 * already (killing `cat` lets it run on to its `rm -rf`). SIGTERM (tmux hangs its panes up),
 * SIGKILL for what is left after 5 s.
 */
async function endNaming(home: string): Promise<void> {
  const naming = () => processTable().filter((p) => p.command.includes(home) && p.pid !== process.pid);
  const found = naming();
  for (const { pid } of found) signal(pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (found.some(({ pid }) => isAlive(pid)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const { pid } of naming()) signal(pid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {}
}

function stopGuard(child: ChildProcess): void {
  child.stdin?.end();
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {}
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForBanner(port: number, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const banner = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(1000);
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('SSH-'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (banner) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
