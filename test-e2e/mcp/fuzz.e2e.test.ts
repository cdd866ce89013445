// A seeded random-input fuzzer over both tools' JSON Schemas, through the built server and the
// SDK's client: no crash, no hang (each call answered within the wait it asked for plus a
// margin), no result over the output budget, and a normal exec answered afterwards.
// Replay a run with PROCMUX_FUZZ_SEED=<seed printed>; PROCMUX_FUZZ_CALLS sets the count.
import { rmSync } from 'node:fs';
import { assertNoLeakedProcesses, isAlive, withoutUsage } from '@procmux/test-utils';
import { EXEC_PARAMETERS, PROCESS_PARAMETERS } from '@procmux/tools';
import { afterAll, expect, it } from 'vitest';
import { endStateDirs, startRaw, startSdk, workspace } from './server.js';

const SEED = Number(process.env.PROCMUX_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CALLS = Number(process.env.PROCMUX_FUZZ_CALLS ?? 150);
/** The run stops starting calls after this long, whatever the count. */
const TIME_BOUND_MS = 100_000;
const BUDGET = 30_000;
/** Beyond the wait a call asked for: the 1 s, poll's 1 s settle, and 2 s for a loaded machine. */
const MARGIN_MS = 4_000;

/** mulberry32: small, seeded, reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(SEED);
const chance = (p: number) => random() < p;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// Short commands only: a one-shot never outlives COMMAND_MS, whatever mode it lands in.
const COMMAND_MS = 5_000;
const COMMANDS = [
  'echo hi',
  'printf "a\\0b"',
  'seq 1 20000',
  'yes "error: boom" | head -c 3000000',
  'sleep 0.3; echo done',
  'cat',
  'exit 3',
  'echo err >&2',
  'printf "\\033[31mred\\033[0m\\r\\n"',
  'nonexistent_command_procmux',
  'sleep 5',
  `printf '${'a'.repeat(27)}!\\n'`,
];
const PATTERNS = ['^(a+)+$', '(a)\\1', 'x(?=y)', '[', 'done', 'error: \\w+', '^\\d+$', '\\u0041', '', '.*'];
const KEYS = ['C-c', 'Enter', 'Up', 'x', 'F13', 'C-M-S-x', '^C', '', 'Escape'];
const WAITS = [-5, 0, 1, 50, 300, 1_500, 2.5];

function junk(): unknown {
  return pick<() => unknown>([
    () => null,
    () => true,
    () => -1,
    () => 1e12,
    () => Number.MAX_SAFE_INTEGER,
    () => 2.5,
    () => '',
    () => 'x'.repeat(Math.floor(random() * 200_000)),
    () => 'nul\u0000inside',
    () => '😀\u202e\ud800',
    () => [],
    () => [1, 'a', null],
    () => ({ a: { b: { c: 1 } } }),
    () => JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`),
  ])();
}

type Schema = { properties: Record<string, Record<string, unknown>> };

function value(key: string, spec: Record<string, unknown>, ids: string[]): unknown {
  if (chance(0.15)) return junk();
  if (Array.isArray(spec.enum)) return pick(spec.enum);
  switch (key) {
    case 'command':
      return pick(COMMANDS);
    case 'session_id':
      return ids.length > 0 && chance(0.8) ? pick(ids) : pick(['proc_missing', 's'.repeat(100_000), '']);
    case 'pattern':
      return pick(PATTERNS);
    case 'keys':
      return chance(0.5)
        ? pick(KEYS)
        : Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(KEYS));
    case 'cwd':
      return pick(['.', '..', '/etc', 'missing', '']);
    case 'env':
      return pick([{ A: '1' }, { 'A=B': 'x' }, { A: 1 }, {}]);
    case 'timeout':
    case 'idle_ms':
    case 'idleMs':
    case 'yield_ms':
    case 'timeout_ms':
    case 'no_output_timeout_ms':
    case 'yieldMs':
    case 'timeoutMs':
    case 'noOutputTimeoutMs':
      return pick(WAITS);
    case 'exit':
      return chance(0.8);
    case 'offset':
    case 'limit':
      return pick([0, 1, 5, 100_000, 100_001, -1]);
  }
  if (spec.type === 'boolean') return chance(0.5);
  if (spec.type === 'string') return pick(['', 'hello\n', 'print(1)\r', 'x'.repeat(70_000)]);
  return junk();
}

function args(schema: Schema, ids: string[], tool: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(schema.properties)) {
    const required = key === 'command' || key === 'action' || (key === 'session_id' && tool === 'process');
    if (chance(required ? 0.95 : 0.3)) out[key] = value(key, spec, ids);
  }
  // A wait_for without a timeout waits 30 s: fine, but most runs should go faster.
  if (tool === 'process' && out.action === 'wait_for' && !('timeout' in out) && chance(0.9))
    out.timeout = 300;
  if (chance(0.08)) out[pick(['bogus', 'session', 'k'.repeat(10_000)])] = junk();
  return out;
}

/** The longest a call may wait by its own parameters (ms), before the margin. */
function waitOf(tool: string, a: Record<string, unknown>): number {
  const n = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  if (tool === 'exec') return COMMAND_MS + 2_000 + 1_000; // the command, startup wait, settle
  if (a.action === 'poll') return Math.min(120_000, Math.max(0, n(a.timeout, 0)));
  if (a.action === 'wait_for') return Math.min(120_000, Math.max(0, n(a.timeout, 30_000)));
  return 1_000;
}

const root = workspace();
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  endStateDirs();
  await assertNoLeakedProcesses();
});

it(`survives ${CALLS} random calls over both tools' schemas (seed ${SEED})`, async () => {
  console.log(`fuzz seed ${SEED}: replay with PROCMUX_FUZZ_SEED=${SEED}`);
  const server = await startSdk(root);
  const ids: string[] = [];
  const started = Date.now();
  let made = 0;
  try {
    for (; made < CALLS && Date.now() - started < TIME_BOUND_MS; made++) {
      const tool = chance(0.4) ? 'exec' : 'process';
      const a = args(
        (tool === 'exec' ? EXEC_PARAMETERS : PROCESS_PARAMETERS) as unknown as Schema,
        ids,
        tool,
      );
      const allowed = waitOf(tool, a) + MARGIN_MS;
      const what = `call ${made} (seed ${SEED}): ${tool} ${JSON.stringify(a).slice(0, 300)}`;
      const t0 = Date.now();
      const r = await server.call(tool, a, allowed + 5_000).catch((error: unknown) => {
        throw new Error(`${what} failed at the protocol level: ${String(error)}`);
      });
      const took = Date.now() - t0;
      expect(took, `${what} took ${took} ms`).toBeLessThanOrEqual(allowed);
      expect(r.text.length, what).toBeLessThanOrEqual(BUDGET);
      expect(r.text.length, what).toBeGreaterThan(0);
      for (const id of r.text.match(/proc_[a-z2-9]{7}/g) ?? []) if (!ids.includes(id)) ids.push(id);
      expect(isAlive(server.pid), what).toBe(true);
    }
    console.log(
      `fuzz seed ${SEED}: ${made} calls in ${Date.now() - started} ms, ${ids.length} sessions seen`,
    );
    const after = await server.call('exec', { command: 'echo after the fuzz' });
    expect(withoutUsage(after.text)).toBe('after the fuzz\n\nProcess exited with code 0.');
  } finally {
    await server.close();
  }
});

/** A line of bytes a broken or hostile client might send. */
function frame(): string | Buffer {
  return pick<() => string | Buffer>([
    () =>
      Buffer.from(
        Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * 256)).filter(
          (b) => b !== 10,
        ),
      ),
    () => JSON.stringify(junk()),
    () => '{"jsonrpc":"2.0","id":1,"method":"tools/ca',
    () => '',
    () => '\r',
    () =>
      JSON.stringify({
        jsonrpc: pick(['2.0', '1.0', 2, null]),
        id: pick([1, 'x', null, {}, [], 1.5, -0]),
        method: pick(['tools/call', 'tools/list', 'ping', 'nope', 7, '']),
        params: pick([
          undefined,
          null,
          [],
          {},
          { name: pick(['exec', 'process', '', 5]), arguments: junk() },
        ]),
      }),
    () => JSON.stringify({ jsonrpc: '2.0', id: 99, result: junk() }),
    () =>
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: junk() } }),
    () =>
      chance(0.1)
        ? `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"p":"${'q'.repeat(9 * 1024 * 1024)}"}}`
        : '{}',
  ])();
}

it(`survives ${CALLS} malformed frames on raw stdio (seed ${SEED})`, async () => {
  const server = await startRaw(root);
  try {
    for (let i = 0; i < CALLS; i++) {
      const line = frame();
      await server.write(
        Buffer.concat([Buffer.isBuffer(line) ? line : Buffer.from(line), Buffer.from('\n')]),
      );
    }
    const pong = await server.request('final', 'ping', undefined, 30_000);
    expect(pong.result, `seed ${SEED}`).toEqual({});
    const after = await server.request('exec', 'tools/call', {
      name: 'exec',
      arguments: { command: 'echo after raw' },
    });
    expect(withoutUsage(after.result?.content?.[0]?.text ?? '')).toBe(
      'after raw\n\nProcess exited with code 0.',
    );
    expect(isAlive(server.pid)).toBe(true);
  } finally {
    await server.close();
  }
});
