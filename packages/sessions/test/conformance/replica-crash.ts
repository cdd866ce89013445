// The two-replica crash test, shared by the SQLite and PostgreSQL stores: replica A (its own
// Node process) starts sessions and is killed with SIGKILL; replica B (another process) leaves
// the records alone while A's lease lives, marks them unknown once it lapses, and a revived A
// writing under its old token is fenced out.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProcessRecord } from '@procmux/core-types';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { assertNoLeakedProcesses, isAlive, makeWorkspace, trackPid } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import type { RecoveryReport } from '../../src/index.js';
import type { StoresUnderTest } from './store-conformance.js';

const REPLICA = fileURLToPath(new URL('./replica.mjs', import.meta.url));
const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));
// Long enough that A's heartbeat (a third of it) renews in time on a busy machine.
const TTL_MS = 3_000;

interface Started {
  id: string;
  pid: number;
  token: number;
  version: number;
}

export interface ReplicaCrashOptions {
  /** Absolute path of a module exporting `openStores()` for the replicas (on built packages). */
  storesModule: string;
  /** Packages whose dist/ the replicas import; checked to be built and newer than src/. */
  builtPackages: string[];
  /** Extra environment for the replicas (where their store is). */
  env(workspace: string): Record<string, string>;
  /** The test's own view of the same store, to read records directly. */
  inspect(workspace: string): Promise<StoresUnderTest>;
}

function newest(dir: string): number {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    latest = Math.max(latest, stat.isDirectory() ? newest(path) : stat.mtimeMs);
  }
  return latest;
}

/** The replicas run the built code: fail clearly when it is missing or older than its source. */
function assertBuilt(packages: string[]): void {
  for (const name of packages) {
    const dist = join(PACKAGES, name, 'dist', 'index.js');
    if (!existsSync(dist) || statSync(dist).mtimeMs < newest(join(PACKAGES, name, 'src'))) {
      throw new Error(
        `packages/${name}/dist is missing or older than its src/: run \`pnpm exec turbo run build --filter=@procmux/${name}\` (turbo does it before tests)`,
      );
    }
  }
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return { stdout: () => stdout, stderr: () => stderr };
}

function firstLine<T>(child: ChildProcess, what: string, timeoutMs = 60_000): Promise<T> {
  const out = collect(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what}: no output in ${timeoutMs} ms\n${out.stderr()}`)),
      timeoutMs,
    );
    child.stdout?.on('data', () => {
      const line = out.stdout().split('\n')[0];
      if (out.stdout().includes('\n') && line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as T);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before printing\n${out.stderr()}`));
    });
  });
}

async function runReplica<T>(args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  const child = spawn(process.execPath, [REPLICA, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  trackPid(child.pid);
  const out = collect(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`replica ${args[0]} exited with ${code}\n${out.stderr()}`);
  return JSON.parse(out.stdout().trim().split('\n').at(-1)!) as T;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the crash test for one store. */
export function runReplicaCrashSuite(name: string, options: ReplicaCrashOptions): void {
  const orphans: number[] = [];

  afterAll(async () => {
    // A's sessions outlive A (nothing probes or kills them by pid); the test ends them.
    for (const pid of orphans) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    await assertNoLeakedProcesses();
  });

  it(`${name}: a replica killed with SIGKILL leaves unknown records, not invented exits, and stays fenced out`, async () => {
    assertBuilt(options.builtPackages);
    const workspace = makeWorkspace();
    const env = {
      ...process.env,
      ...options.env(workspace),
      PROCMUX_REPLICA_STORES: options.storesModule,
      PROCMUX_REPLICA_WORKSPACE: workspace,
      PROCMUX_REPLICA_TTL_MS: String(TTL_MS),
    };
    const stores = await options.inspect(workspace);
    try {
      const a = spawn(process.execPath, [REPLICA, 'start', '2'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      trackPid(a.pid);
      const { started } = await firstLine<{ started: Started[] }>(a, 'replica A');
      for (const s of started) {
        orphans.push(s.pid);
        trackPid(s.pid);
      }
      const read = async (id: string) => {
        const entry = (await stores.checkpoints.get(RECOVERY_NAMESPACE, id))!;
        return { ...entry, record: JSON.parse(entry.data) as ProcessRecord };
      };
      for (const s of started)
        expect((await read(s.id)).record).toMatchObject({ state: 'running', replica: 'replica-a' });

      // A is alive: its lease makes B report unknown without writing.
      const held = await runReplica<RecoveryReport>(['recover'], env);
      for (const s of started) {
        expect(held.outcomes.find((o) => o.id === s.id)).toMatchObject({
          outcome: 'unknown',
          written: false,
          code: 'ERR_RECOVERY_OWNERSHIP',
        });
        expect((await read(s.id)).version).toBe(s.version);
      }

      a.kill('SIGKILL');
      await new Promise((resolve) =>
        a.exitCode !== null || a.signalCode !== null ? resolve(null) : a.once('exit', resolve),
      );
      await pause(TTL_MS + 500);

      // A's leases have lapsed: B marks its sessions unknown, exit code null.
      const recovered = await runReplica<RecoveryReport>(['recover'], env);
      for (const s of started) {
        expect(recovered.outcomes.find((o) => o.id === s.id)).toMatchObject({
          outcome: 'unknown',
          state: 'unknown',
          exitCode: null,
          written: true,
        });
        const after = await read(s.id);
        expect(after.record).toMatchObject({
          state: 'unknown',
          exitCode: null,
          signal: null,
          replica: 'replica-b',
        });
        expect(after.fencingToken).toBeGreaterThan(s.token);
      }

      // A revived with its old token cannot write an exit over B's record, nor renew its lease.
      const [first] = started;
      const before = await read(first!.id);
      const stale = await runReplica<Record<string, string>>(
        ['stale-write', first!.id, String(first!.token)],
        env,
      );
      expect(stale).toEqual({ write: 'ERR_RECOVERY_FENCE', conflict: 'fence', renew: 'ERR_RECOVERY_FENCE' });
      expect(await read(first!.id)).toEqual(before);

      // Nothing re-spawned them. A's processes died with A (lifetime 'host': its watchdog
      // tree-killed them when A was SIGKILLed), and B still says unknown, never an exit it
      // did not see.
      expect(recovered.outcomes.some((o) => o.outcome === 'reattached')).toBe(false);
      for (const s of started) expect(isAlive(s.pid)).toBe(false);
    } finally {
      await stores.close?.();
    }
  });
}
