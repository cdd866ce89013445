#!/usr/bin/env node
// `pnpm bench`: runs the cases, prints one table, writes results/latest.json. Exit code 0
// whatever the figures say; non-zero only when the harness itself fails.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchArgs, parseArgs, USAGE } from './args.js';
import type { BenchCase, BenchContext, Outcome } from './case.js';
import { CASES } from './cases/index.js';
import { markdownTable, type Row, textTable, toRow } from './format.js';
import { machineInfo } from './machine.js';
import { sweep } from './processes.js';
import { runCase } from './run-case.js';

const RESULTS = fileURLToPath(new URL('../results/latest.json', import.meta.url));

function select(filters: readonly string[]): BenchCase[] {
  if (filters.length === 0) return [...CASES];
  const unknown = filters.filter((f) => !CASES.some((c) => c.id.startsWith(f)));
  if (unknown.length > 0) {
    throw new Error(`no case matches ${unknown.join(', ')}; cases: ${CASES.map((c) => c.id).join(', ')}`);
  }
  return CASES.filter((c) => filters.some((f) => c.id.startsWith(f)));
}

function writeResults(
  args: BenchArgs,
  cases: BenchCase[],
  outcomes: Outcome[],
  rows: Row[],
  seconds: number,
): void {
  const report = {
    mode: args.quick ? 'quick' : 'full',
    filters: args.filters,
    startedAt: new Date(Date.now() - seconds * 1000).toISOString(),
    durationSeconds: Math.round(seconds * 10) / 10,
    machine: machineInfo(),
    cases: cases.map((c, i) => ({
      id: c.id,
      title: c.title,
      target: c.target,
      row: rows[i],
      outcome: outcomes[i],
    })),
  };
  mkdirSync(join(RESULTS, '..'), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
}

async function main(): Promise<void> {
  let args: BenchArgs;
  let cases: BenchCase[];
  try {
    args = parseArgs(process.argv.slice(2));
    cases = select(args.filters);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (args.list) {
    for (const c of cases) process.stdout.write(`${c.id.padEnd(18)} ${c.title}  (target ${c.target})\n`);
    return;
  }

  const tmpDir = mkdtempSync(join(os.tmpdir(), 'procmux-bench-'));
  const cleanup = () => {
    sweep();
    rmSync(tmpDir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanup();
      process.exit(130);
    });
  }
  const ctx: BenchContext = {
    quick: args.quick,
    tmpDir,
    progress: (message) => process.stderr.write(`  ${message}\n`),
  };
  const started = performance.now();
  const outcomes: Outcome[] = [];
  try {
    for (const c of cases) {
      process.stderr.write(`[bench] ${c.id}: ${c.title}\n`);
      const caseStart = performance.now();
      const outcome = await runCase(c, ctx);
      outcomes.push(outcome);
      const status = outcome.status === 'measured' ? (outcome.pass ? 'pass' : 'MISS') : outcome.status;
      process.stderr.write(
        `[bench] ${c.id}: ${status} in ${((performance.now() - caseStart) / 1000).toFixed(1)} s\n`,
      );
    }
  } finally {
    cleanup();
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = cases.map((c, i) => toRow(c, outcomes[i]!));
  const machine = machineInfo();
  const mode = args.quick ? 'quick' : 'full';
  process.stdout.write(`\nprocmux bench (${mode}, ${seconds.toFixed(0)} s) on ${machine.line}\n\n`);
  process.stdout.write(`${textTable(rows)}\n`);
  if (args.markdown) process.stdout.write(`\n${markdownTable(rows, machine, mode)}\n`);
  writeResults(args, cases, outcomes, rows, seconds);
  process.stdout.write(`\nwrote ${RESULTS}\n`);
}

main().then(
  // Explicit: a native PTY handle or a stray timer must not keep a finished run alive.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `bench harness crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    sweep();
    process.exit(1);
  },
);
