import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions, type ProcessSessionsOptions } from '@procmux/sessions';
import { processTable, startTestSshd, type TestSshd, waitFor } from '@procmux/test-utils';
import { createSshBackend, type SshBackend, type SshBackendOptions } from '../src/index.js';

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

/** Waits (generously) until no remote process of this worker is left; returns what is left. */
export async function settleSurvivors(timeoutMs = 8_000): Promise<{ pid: number; command: string }[]> {
  try {
    await waitFor(() => remoteSurvivors().length === 0, timeoutMs, 'remote processes to end');
  } catch {}
  return remoteSurvivors();
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

export { startTestSshd };
