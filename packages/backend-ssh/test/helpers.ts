import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemoteTmuxBackend } from '@procmux/backend-tmux';
import {
  createMemoryRecoveryStores,
  createProcessSessions,
  type ProcessSessions,
  type ProcessSessionsOptions,
} from '@procmux/sessions';
import { processTable, startTestSshd, type TestSshd, waitFor } from '@procmux/test-utils';
import {
  createSshBackend,
  createSshTmuxBackend,
  type SshBackend,
  type SshBackendOptions,
} from '../src/index.js';

export interface SshWorld {
  sshd: TestSshd;
  workspace: string;
  backend: SshBackend;
  sessions: ProcessSessions;
}

/** Every process on this machine (the loopback remote) carrying a marker this worker minted. */
export function remoteSurvivors(): { pid: number; command: string }[] {
  const prefix = `${process.pid}-ssh-`;
  return processTable()
    .filter((p) => p.state !== 'Z' && p.marker?.startsWith(prefix))
    .map((p) => ({ pid: p.pid, command: p.command }));
}

/** The wrapper's monitors of this worker's sessions (their arguments carry the marker). */
export function remoteMonitors(): { pid: number; command: string }[] {
  const prefix = `${process.pid}-ssh-`;
  return processTable()
    .filter((p) => p.state !== 'Z' && p.command.includes('procmux-ssh-monitor') && p.command.includes(prefix))
    .map((p) => ({ pid: p.pid, command: p.command }));
}

/**
 * Waits (generously) until no remote process of this worker is left, its wrappers' monitors
 * included; returns what is left. A monitor removes its session's cgroup before it leaves, up to
 * a tick (1 s, longer under load) after the program ended: the file's cgroup check runs after.
 */
export async function settleSurvivors(timeoutMs = 8_000): Promise<{ pid: number; command: string }[]> {
  const left = () => [...remoteSurvivors(), ...remoteMonitors()];
  try {
    await waitFor(() => left().length === 0, timeoutMs, 'remote processes and monitors to end');
  } catch {}
  return left();
}

export function backendOptions(sshd: TestSshd, extra: Partial<SshBackendOptions> = {}): SshBackendOptions {
  return {
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    identityFile: sshd.identityFile,
    knownHostsFile: sshd.knownHostsFile,
    agent: false,
    killGraceMs: 500,
    keepaliveIntervalMs: 500,
    keepaliveCountMax: 2,
    ...extra,
  };
}

export async function openWorld(
  sshd: TestSshd,
  extra: Partial<ProcessSessionsOptions> = {},
  ssh: Partial<SshBackendOptions> = {},
): Promise<SshWorld> {
  const workspace = mkdtempSync(join(tmpdir(), 'procmux-ssh-ws-'));
  const backend = await createSshBackend(backendOptions(sshd, ssh));
  const sessions = createProcessSessions({
    cwd: workspace,
    sandbox: backend.sandbox,
    ptyBackend: backend.ptyBackend,
    ...extra,
  });
  return { sshd, workspace, backend, sessions };
}

export async function closeWorld(world: SshWorld | undefined): Promise<void> {
  if (!world) return;
  await world.sessions.dispose();
  world.backend.close();
  rmSync(world.workspace, { recursive: true, force: true });
}

/**
 * Pids running exactly `sleep SECONDS` (a duration no other test uses): the escapee of issue 28,
 * a double fork into its own session with an empty environment, found by its command line.
 */
export function sleepers(seconds: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\u0000${seconds}\u0000`)
        found.push(Number(entry));
    } catch {}
  }
  return found;
}

/** The parent pid of a process (a remote wrapper's sshd session process). */
export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** A host driving persisted sessions on the loopback remote's tmux server under `dir`. */
export interface TmuxHost {
  world: SshWorld;
  tmux: RemoteTmuxBackend;
  sessions: ProcessSessions;
}

export async function openTmuxHost(
  sshd: TestSshd,
  dir: string,
  options: {
    ownerId: string;
    stores?: ReturnType<typeof createMemoryRecoveryStores>;
    leaseTtlMs?: number;
    ssh?: Partial<SshBackendOptions>;
  },
): Promise<TmuxHost> {
  const world = await openWorld(sshd, {}, options.ssh);
  const tmux = await createSshTmuxBackend(world.backend, { workspace: world.workspace, dir });
  const sessions = createProcessSessions({
    cwd: world.workspace,
    sandbox: world.backend.sandbox,
    ptyBackend: world.backend.ptyBackend,
    persistentPtyBackend: tmux,
    ...(options.stores ?? createMemoryRecoveryStores()),
    ownerId: options.ownerId,
    recoveryBackend: tmux,
    ...(options.leaseTtlMs === undefined ? {} : { recoveryLimits: { leaseTtlMs: options.leaseTtlMs } }),
  });
  return { world, tmux, sessions };
}

export async function closeTmuxHost(host: TmuxHost): Promise<void> {
  await host.sessions.dispose();
  await host.tmux.dispose();
  await closeWorld(host.world);
}

export { startTestSshd };
