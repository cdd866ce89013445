// @procmux/backend-ssh against OpenSSH's own client on the same loopback sshd (started by the
// test helper): an `echo hi` round trip on a warm connection, and 50 MB through `cat`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, num, signedMs } from '../format.js';
import { loadPackage, NotBuiltError } from '../load.js';
import { benchEnv, track, untrack } from '../processes.js';
import { type BenchSshd, loadSshdHelper } from '../sshd.js';
import { median } from '../stats.js';
import { withTimeout } from '../timing.js';

const MB = 1e6;

interface SessionView {
  input(text: string): Promise<unknown>;
  closeStdin(): Promise<unknown>;
  wait(options: { timeoutMs: number }): Promise<{ exitCode: number | null }>;
  poll(): Promise<{ stdout: string }>;
  metadata(): { totalBytes: number };
}
interface SessionsView {
  start(request: Record<string, unknown>): Promise<SessionView>;
  dispose(): Promise<void>;
}
interface SshBackendView {
  sandbox: unknown;
  ptyBackend: unknown;
  connection: {
    run(command: string): Promise<{ stdout: string; code: number | null }>;
    exec(command: string): Promise<NodeJS.ReadWriteStream & { stderr: NodeJS.ReadableStream }>;
  };
  close(): void;
}

interface World {
  sshd: BenchSshd;
  sessions: SessionsView;
  backend: SshBackendView;
  /** OpenSSH client arguments through a warm ControlMaster. */
  ssh(command: string): string[];
  close(): Promise<void>;
}

async function openWorld(ctx: BenchContext): Promise<World> {
  const helper = await loadSshdHelper(ctx.tmpDir);
  const missing = helper.sshdMissingReason();
  if (missing !== undefined) throw new NotBuiltError(`no sshd here: ${missing}`);
  const { createSshBackend } = await loadPackage<{
    createSshBackend(options: Record<string, unknown>): Promise<SshBackendView>;
  }>('@procmux/backend-ssh', ['createSshBackend']);
  const { createProcessSessions } = await loadPackage<{
    createProcessSessions(options: Record<string, unknown>): SessionsView;
  }>('@procmux/sessions', ['createProcessSessions']);
  const sshd = await helper.startTestSshd();
  const control = join(ctx.tmpDir, 'cm-%C');
  const master = ['-o', 'ControlMaster=auto', '-o', `ControlPath=${control}`, '-o', 'ControlPersist=120'];
  let backend: SshBackendView | undefined;
  try {
    backend = await createSshBackend({
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      identityFile: sshd.identityFile,
      knownHostsFile: sshd.knownHostsFile,
      agent: false,
    });
    const sessions = createProcessSessions({
      cwd: ctx.tmpDir,
      sandbox: backend.sandbox,
      ptyBackend: backend.ptyBackend,
      limits: { maxInputBytes: 1024 * 1024 },
    });
    const ready = backend;
    return {
      sshd,
      sessions,
      backend: ready,
      ssh: (command) => [...master, ...sshd.sshArgs(), command],
      async close() {
        await sessions.dispose();
        ready.close();
        await runSsh(['-O', 'exit', ...master, ...sshd.sshArgs()], undefined).catch(() => {});
        await sshd.stop();
      },
    };
  } catch (error) {
    backend?.close();
    await sshd.stop();
    throw error;
  }
}

/** Runs `ssh args`, feeding `input` (if any); resolves with the bytes it printed. */
function runSsh(args: string[], input: ((write: (chunk: string) => boolean) => Promise<void>) | undefined) {
  const child = spawn('ssh', args, { env: benchEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
  track(child.pid);
  let bytes = 0;
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    bytes += Buffer.byteLength(chunk);
    if (text.length < 64) text += chunk;
  });
  const done = new Promise<{ bytes: number; text: string; code: number | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      untrack(child.pid);
      resolve({ bytes, text, code });
    });
  });
  if (input) {
    void input((chunk) => child.stdin.write(chunk)).then(() => child.stdin.end());
  } else child.stdin.end();
  return withTimeout(done, 120_000, `ssh ${args.at(-1)}`);
}

export const sshRoundTrip: BenchCase = {
  id: 'ssh-round-trip',
  title:
    '`echo hi` as a session over @procmux/backend-ssh on a warm connection [`ssh` through a warm ControlMaster]',
  target: '≤ raw',
  async run(ctx: BenchContext): Promise<Measured> {
    const runs = ctx.quick ? 10 : 40;
    const world = await openWorld(ctx);
    try {
      const viaSsh2: number[] = [];
      const { a, b } = await alternate({
        warmup: 3,
        runs,
        onPair: (i) => {
          if ((i + 1) % 10 === 0) ctx.progress(`ssh-round-trip: ${i + 1}/${runs}`);
        },
        a: async () => {
          const start = performance.now();
          const s = await world.sessions.start({ shell: true, command: 'echo hi' });
          const exit = await s.wait({ timeoutMs: 15_000 });
          const took = performance.now() - start;
          const out = (await s.poll()).stdout;
          if (exit.exitCode !== 0 || out !== 'hi\n') throw new Error(`echo hi over the backend: ${out}`);
          // ssh2's own exec on the same connection: the floor under the wrapper.
          const floor = performance.now();
          await world.backend.connection.run('echo hi');
          viaSsh2.push(performance.now() - floor);
          return took;
        },
        b: async () => {
          const start = performance.now();
          const r = await runSsh(world.ssh('echo hi'), undefined);
          if (r.code !== 0 || r.text !== 'hi\n') throw new Error(`ssh echo hi: ${r.text}`);
          return performance.now() - start;
        },
      });
      const extra = median(a) - median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'ms'),
        raw: figure(b, 'ms'),
        ratio: signedMs(extra),
        pass: extra <= 0,
        notes: [
          `median of ${runs} per side after 3 warm-up pairs; procmux: sessions.start → wait → poll through the remote sh wrapper; raw: spawn ssh (ControlMaster warm) until it exits`,
          `ssh2's bare exec of echo hi on the same warm connection: ${figure(viaSsh2.slice(3), 'ms').text}`,
        ],
      };
    } finally {
      await world.close();
    }
  },
};

export const sshThroughput: BenchCase = {
  id: 'ssh-throughput',
  title:
    '50 MB through `cat` in a pipe session over @procmux/backend-ssh [`ssh host cat`, ControlMaster warm]',
  target: '≥ 0.5× raw',
  async run(ctx: BenchContext): Promise<Measured> {
    const bytes = ctx.quick ? 10 * MB : 50 * MB;
    const chunk = `${'x'.repeat(99)}\n`.repeat(10_000); // 1 MB
    const chunks = bytes / chunk.length;
    const runs = ctx.quick ? 2 : 3;
    const world = await openWorld(ctx);
    try {
      const floor: number[] = [];
      const { a, b } = await alternate({
        warmup: 1,
        runs,
        onPair: (i) => ctx.progress(`ssh-throughput: ${i + 1}/${runs}`),
        a: async () => {
          const start = performance.now();
          const s = await world.sessions.start({ command: 'cat' });
          for (let i = 0; i < chunks; i++) await s.input(chunk);
          await s.closeStdin();
          const exit = await s.wait({ timeoutMs: 120_000 });
          const took = performance.now() - start;
          if (exit.exitCode !== 0 || s.metadata().totalBytes !== bytes) {
            throw new Error(`cat over the backend: exit ${exit.exitCode}, ${s.metadata().totalBytes} bytes`);
          }
          floor.push(await bareCat(world.backend, chunk, chunks));
          return bytes / MB / (took / 1000);
        },
        b: async () => {
          const start = performance.now();
          const r = await runSsh(world.ssh('cat'), async (write) => {
            for (let i = 0; i < chunks; i++) {
              if (!write(chunk)) await new Promise((resolve) => setTimeout(resolve, 0));
            }
          });
          const took = performance.now() - start;
          if (r.code !== 0 || r.bytes !== bytes) throw new Error(`ssh cat: exit ${r.code}, ${r.bytes} bytes`);
          return bytes / MB / (took / 1000);
        },
      });
      const ratio = median(a) / median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'MB/s'),
        raw: figure(b, 'MB/s'),
        ratio: `${num(ratio)}×`,
        pass: ratio >= 0.5,
        notes: [
          `${bytes / MB} MB in 1 MB inputs to cat and back, ${runs} runs per side after 1 warm-up pair; output kept by the session's log (64 MiB cap)`,
          `ssh2's bare exec of cat on the same connection (no wrapper, no session): ${figure(floor.slice(1), 'MB/s').text}`,
          ...(ctx.quick ? ['quick mode: 10 MB instead of 50 MB'] : []),
        ],
      };
    } finally {
      await world.close();
    }
  },
};

/** The same bytes through ssh2's own exec channel, honouring backpressure: the transport's floor. */
async function bareCat(backend: SshBackendView, chunk: string, chunks: number): Promise<number> {
  const start = performance.now();
  const channel = await backend.connection.exec('cat');
  let bytes = 0;
  channel.stderr.resume();
  const closed = new Promise<void>((resolve) => {
    channel.on('data', (data: Buffer) => {
      bytes += data.length;
    });
    channel.on('close', () => resolve());
  });
  for (let i = 0; i < chunks; i++) {
    if (!channel.write(chunk)) await new Promise((resolve) => channel.once('drain', resolve));
  }
  channel.end();
  await withTimeout(closed, 120_000, 'ssh2 cat');
  const took = performance.now() - start;
  if (bytes !== chunk.length * chunks) throw new Error(`ssh2 cat returned ${bytes} bytes`);
  return bytes / MB / (took / 1000);
}
