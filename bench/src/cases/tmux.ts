// The tmux backend (@procmux/backend-tmux) next to native PTY sessions, both through a
// sessions registry: first byte, throughput, and recovering 32 persisted sessions.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { fact, figure, num, signedMs } from '../format.js';
import { median } from '../stats.js';

// Loosely typed views of the packages (the harness reads them from dist/ at run time).
interface Session {
  id: string;
  poll(o: { timeoutMs: number }): Promise<{ stdout: string; state: string }>;
  wait(o: { timeoutMs: number }): Promise<{ exitCode: number | null }>;
  kill(): Promise<unknown>;
}
interface Registry {
  start(r: Record<string, unknown>): Promise<Session>;
  recover(): Promise<{ outcomes: { outcome: string }[] }>;
  dispose(): Promise<void>;
}
interface Tmux {
  killServer(): Promise<void>;
  dispose(): Promise<void>;
}

async function load() {
  const sessions = (await import('@procmux/sessions')) as unknown as {
    createProcessSessions(o: Record<string, unknown>): Registry;
  };
  const tmux = (await import('@procmux/backend-tmux')) as unknown as {
    createTmuxBackend(o: { dir: string }): Tmux;
  };
  const sqlite = (await import('@procmux/store-sqlite')) as unknown as {
    openSqliteRecoveryStore(o: { path: string }): { checkpoints: unknown; leases: unknown; close(): void };
  };
  return { ...sessions, ...tmux, ...sqlite };
}

async function pair(ctx: BenchContext) {
  const api = await load();
  const dir = mkdtempSync(join(ctx.tmpDir, 'tmux-'));
  const tmux = api.createTmuxBackend({ dir });
  const viaTmux = api.createProcessSessions({ cwd: ctx.tmpDir, ptyBackend: tmux });
  const native = api.createProcessSessions({ cwd: ctx.tmpDir });
  return {
    viaTmux,
    native,
    async close() {
      await viaTmux.dispose();
      await native.dispose();
      await tmux.killServer();
    },
  };
}

async function firstByte(sessions: Registry): Promise<number> {
  const start = performance.now();
  const s = await sessions.start({ command: 'echo', args: ['hi'], pty: true });
  for (;;) {
    const page = await s.poll({ timeoutMs: 10_000 });
    if (page.stdout.includes('hi')) break;
    if (page.state !== 'running' && page.state !== 'starting') throw new Error('echo hi printed nothing');
  }
  const ms = performance.now() - start;
  await s.wait({ timeoutMs: 10_000 });
  return ms;
}

export const tmuxFirstByte: BenchCase = {
  id: 'tmux-first-byte',
  title: 'sessions.start → first output of `echo hi` in a terminal on the tmux backend [native PTY session]',
  target: '≤ raw + 30 ms',
  async run(ctx): Promise<Measured> {
    const p = await pair(ctx);
    const runs = ctx.quick ? 10 : 30;
    try {
      const { a, b } = await alternate({
        warmup: 2,
        runs,
        a: () => firstByte(p.viaTmux),
        b: () => firstByte(p.native),
      });
      const extra = median(a) - median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'ms'),
        raw: figure(b, 'ms'),
        ratio: signedMs(extra),
        pass: extra <= 30,
        notes: [`median of ${runs} runs per side after 2 warm-up pairs; both through createProcessSessions`],
      };
    } finally {
      await p.close();
    }
  },
};

async function throughput(sessions: Registry, bytes: number): Promise<number> {
  const start = performance.now();
  const s = await sessions.start({
    shell: true,
    command: `head -c ${bytes} /dev/zero | tr '\\0' a | fold -w 100`,
    pty: true,
    screen: false,
  });
  const exit = await s.wait({ timeoutMs: 600_000 });
  if (exit.exitCode !== 0) throw new Error(`throughput run exited ${exit.exitCode}`);
  return bytes / 1e6 / ((performance.now() - start) / 1000);
}

export const tmuxThroughput: BenchCase = {
  id: 'tmux-throughput',
  title: 'terminal output through the tmux backend (byte log followed) into a session [native PTY session]',
  target: '≥ 0.5× raw',
  async run(ctx): Promise<Measured> {
    const p = await pair(ctx);
    const bytes = ctx.quick ? 1e6 : 5e6;
    try {
      const { a, b } = await alternate({
        warmup: 1,
        runs: 5,
        onPair: (i) => ctx.progress(`tmux-throughput: pair ${i + 1}/5`),
        a: () => throughput(p.viaTmux, bytes),
        b: () => throughput(p.native, bytes),
      });
      const ratio = median(a) / median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'MB/s'),
        raw: figure(b, 'MB/s'),
        ratio: `${num(ratio)}×`,
        pass: ratio >= 0.5,
        notes: [`${bytes / 1e6} MB of 100-column lines per run, no screen, 1 warm-up + 5 counted pairs`],
      };
    } finally {
      await p.close();
    }
  },
};

export const tmuxRecovery: BenchCase = {
  id: 'tmux-recovery-32',
  title: '32 persisted tmux sessions: a new host recover()s them all (SQLite store) [none: absolute]',
  target: 'report (32 reattached)',
  async run(ctx): Promise<Measured> {
    const api = await load();
    const count = 32;
    const samples: number[] = [];
    const rounds = ctx.quick ? 1 : 3;
    for (let round = 0; round < rounds; round++) {
      const dir = mkdtempSync(join(ctx.tmpDir, 'rec-'));
      const tmux = api.createTmuxBackend({ dir: join(dir, 'tmux') });
      const open = (backend: Tmux) => {
        const store = api.openSqliteRecoveryStore({ path: join(dir, 'state.sqlite') });
        const sessions = api.createProcessSessions({
          cwd: ctx.tmpDir,
          ptyBackend: backend,
          recoveryBackend: backend,
          ownerId: 'bench',
          checkpoints: store.checkpoints,
          leases: store.leases,
          limits: { maxSessions: count },
        });
        return { store, sessions };
      };
      const first = open(tmux);
      try {
        for (let i = 0; i < count; i++) {
          await first.sessions.start({ command: 'sleep', args: ['120'], pty: true, lifetime: 'detached' });
        }
        // The first host lets go (as if it died); a second one recovers.
        await first.sessions.dispose();
        await tmux.dispose();
        first.store.close();
        const tmux2 = api.createTmuxBackend({ dir: join(dir, 'tmux') });
        const second = open(tmux2);
        const start = performance.now();
        const report = await second.sessions.recover();
        samples.push(performance.now() - start);
        const back = report.outcomes.filter((o) => o.outcome === 'reattached').length;
        if (back !== count) throw new Error(`recovered ${back} of ${count}`);
        await second.sessions.dispose();
        await tmux2.killServer();
        second.store.close();
      } finally {
        await tmux.killServer().catch(() => {});
      }
      ctx.progress(`tmux-recovery-32: round ${round + 1}/${rounds}`);
    }
    return {
      status: 'measured',
      procmux: figure(samples, 'ms'),
      raw: null,
      ratio: fact(`${count} reattached`).text,
      pass: true,
      notes: [
        `${count} \`sleep 120\` sessions per round, ${rounds} round(s); time of recover() until every one is reattached`,
      ],
    };
  },
};
