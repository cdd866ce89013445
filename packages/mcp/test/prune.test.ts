// `procmux sessions prune` and `prune --gone` in this process, on real temp dirs and real
// SQLite stores: what goes (dirs of deleted workspaces, with their records), what stays (a live
// workspace's, an unmarked one, one a live server holds) and the line that says so.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { openSqliteRecoveryStore } from '@procmux/store-sqlite';
import { assertNoLeakedProcesses, isAlive, trackPid, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runPrune } from '../src/prune-command.js';
import { markWorkspace, stateRoot, workspaceHash } from '../src/state-dir.js';

const dirs: string[] = [];
const holders: ChildProcess[] = [];

function dir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

afterEach(async () => {
  for (const holder of holders.splice(0)) holder.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

async function prune(command: { cwd: string; stateDir?: string; gone?: boolean }, env: NodeJS.ProcessEnv) {
  const out = { stdout: '', stderr: '' };
  const sink = (key: 'stdout' | 'stderr') =>
    ({
      write(text: string) {
        out[key] += text;
        return true;
      },
    }) as NodeJS.WriteStream;
  const code = await runPrune(
    { cwd: command.cwd, stateDir: command.stateDir, gone: command.gone ?? false },
    { stdout: sink('stdout'), stderr: sink('stderr'), env },
  );
  return { code, ...out };
}

/** A state dir for `workspace` under `home`'s state root, holding one record of a session. */
async function stateDirWithRecord(env: NodeJS.ProcessEnv, workspace: string): Promise<string> {
  const d = join(stateRoot(env), workspaceHash(workspace));
  mkdirSync(d, { recursive: true });
  markWorkspace(d, workspace);
  const store = openSqliteRecoveryStore({ path: join(d, 'state.sqlite') });
  const lease = await store.leases.acquire(RECOVERY_NAMESPACE, 'proc_gone1', 'mcp-test', 30_000);
  await store.checkpoints.compareAndSet(RECOVERY_NAMESPACE, {
    key: 'proc_gone1',
    data: '{}',
    expectedVersion: 0,
    fencingToken: lease!.token,
  });
  store.close();
  return d;
}

/** A live process standing in for a server that holds `stateDir`'s lock. */
async function liveHolder(stateDir: string): Promise<number> {
  const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  holders.push(holder);
  trackPid(holder.pid);
  await waitFor(() => holder.pid !== undefined && isAlive(holder.pid), 5_000, 'the holder to run');
  writeFileSync(join(stateDir, 'server.lock'), String(holder.pid));
  return holder.pid!;
}

describe.skipIf(process.platform === 'win32')('procmux sessions prune', () => {
  it('--gone removes the dirs of deleted workspaces with their records, and keeps the rest', async () => {
    const home = dir('pm-prune-home-');
    const env = { HOME: home, XDG_STATE_HOME: join(home, 'state') };
    expect(await prune({ cwd: home, gone: true }, env)).toEqual({
      code: 0,
      stdout: `procmux: no state in ${join(home, 'state', 'procmux')}: nothing to remove\n`,
      stderr: '',
    });
    const live = dir('pm-prune-ws-');
    const gone = join(home, 'deleted-workspace');
    const held = join(home, 'deleted-too');
    const keptDir = await stateDirWithRecord(env, live);
    const goneDir = await stateDirWithRecord(env, gone);
    const heldDir = await stateDirWithRecord(env, held);
    const holder = await liveHolder(heldDir);
    mkdirSync(join(stateRoot(env), 'unmarked'));
    const { code, stdout } = await prune({ cwd: home, gone: true }, env);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toContain(
      `procmux: removed ${goneDir} (workspace ${gone} no longer exists; ended 0 persisted session(s) and removed 1 record(s))`,
    );
    expect(lines).toContain(
      `procmux: kept ${heldDir}: a procmux mcp server (pid ${holder}) is using ${heldDir}; stop it first, or kill its sessions with the process tool`,
    );
    expect(lines.at(-1)).toBe(
      `procmux: removed 1 state dir(s) in ${stateRoot(env)}; kept 1 whose workspace exists; left 1 without a workspace mark (made before procmux marked them)`,
    );
    expect(readdirSync(stateRoot(env)).sort()).toEqual(
      [keptDir, heldDir, join(stateRoot(env), 'unmarked')].map((d) => d.split('/').pop()).sort(),
    );
  });

  it('prunes one workspace: its records and dir go; nothing to do without one; refused while a server holds it', async () => {
    const home = dir('pm-prune-home-');
    const env = { HOME: home, XDG_STATE_HOME: join(home, 'state') };
    const workspace = dir('pm-prune-ws-');
    const stateDir = join(stateRoot(env), workspaceHash(workspace));
    expect((await prune({ cwd: workspace }, env)).stdout).toBe(
      `procmux: no state in ${stateDir}: nothing to prune\n`,
    );
    await stateDirWithRecord(env, workspace);
    const holder = await liveHolder(stateDir);
    expect((await prune({ cwd: workspace }, env)).stdout).toContain(
      `a procmux mcp server (pid ${holder}) is using ${stateDir}`,
    );
    expect(existsSync(join(stateDir, 'state.sqlite'))).toBe(true);
    const [child] = holders.splice(0);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGKILL');
    // Reaped, not only dead: a zombie still answers kill(pid, 0) as the lock check asks.
    await exited;
    expect(isAlive(holder)).toBe(false);
    expect((await prune({ cwd: workspace }, env)).stdout).toBe(
      `procmux: ended 0 persisted session(s) and removed 1 record(s) in ${stateDir} (state dir removed)\n`,
    );
    expect(existsSync(stateDir)).toBe(false);
  });

  it('exits 2 naming why for a state dir inside the workspace', async () => {
    const workspace = dir('pm-prune-ws-');
    const result = await prune({ cwd: workspace, stateDir: join(workspace, 'state') }, {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^procmux: .*a directory outside the workspace/);
  });
});
