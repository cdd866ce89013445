#!/usr/bin/env node
// Runs the test suite several times in a row, optionally beside busy loops, and lists every test
// that failed at least once with how often: a test that only fails under load shows up here.
//   pnpm test:stress [--runs N] [--busy K] [--filter <package>]...
// Without --filter: the unit tests of every package, then the e2e suite (what `pnpm test` runs
// after build, lint and typecheck). With --filter @procmux/x (or x): that package's tests only.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { clearReports, readResults } from './vitest-results.mjs';

const root = new URL('../../', import.meta.url).pathname;
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };

function usage(message) {
  process.stderr.write(
    `test-stress: ${message}\nusage: pnpm test:stress [--runs N] [--busy K] [--filter <package>]...\n`,
  );
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      runs: { type: 'string', default: '1' },
      busy: { type: 'string', default: '0' },
      filter: { type: 'string', multiple: true, default: [] },
    },
  });
} catch (error) {
  usage(error.message);
}
const count = (name, min, max) => {
  const text = parsed.values[name];
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    usage(`--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(text)})`);
  return value;
};
const runs = count('runs', 1, 1000);
const busy = count('busy', 0, 64);
const filters = parsed.values.filter.map((f) => (f.startsWith('@') ? f : `@procmux/${f}`));

function log(message) {
  process.stdout.write(`\x1b[1m[stress]\x1b[0m ${message}\n`);
}

// Each step in a process group of its own, awaited (not spawnSync, which kept this script from
// hearing SIGTERM: it went on to the next step), so a stop reaches the whole step.
let current;
function pnpm(args) {
  return new Promise((resolve) => {
    const child = spawn('pnpm', args, { cwd: root, env, stdio: 'inherit', detached: true });
    current = child;
    child.on('error', () => resolve(1));
    child.on('close', (code) => {
      current = undefined;
      resolve(code ?? 1);
    });
  });
}

// The steps of one run: turbo never caches tests (turbo.json), so each run runs them all.
const steps =
  filters.length === 0
    ? [
        ['exec', 'turbo', 'run', 'test', '--continue', '--concurrency=2'],
        ['exec', 'turbo', 'run', 'test:e2e', '--continue', '--concurrency=1'],
      ]
    : [
        [
          'exec',
          'turbo',
          'run',
          'test',
          'test:e2e',
          '--continue',
          '--concurrency=1',
          ...filters.map((f) => `--filter=${f}`),
        ],
      ];

// CPU-bound loops this script owns, so the suite runs on a machine as busy as a shared CI runner
// (started after the build).
let loops = [];
const stopLoops = () => {
  for (const loop of loops) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopLoops();
    const step = current;
    if (step === undefined) process.exit(130);
    // The step's tests run their own teardown: it ends, then so does this script.
    process.kill(-step.pid, signal);
    step.on('close', () => process.exit(130));
  });
}

log(`build (once)`);
if ((await pnpm(['exec', 'turbo', 'run', 'build', ...filters.map((f) => `--filter=${f}...`)])) !== 0) {
  log('the build failed; nothing was tested');
  process.exit(1);
}

loops = Array.from({ length: busy }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);

const failedIn = new Map();
const totals = [];
for (let run = 1; run <= runs; run++) {
  log(`run ${run} of ${runs}${busy > 0 ? ` beside ${busy} busy loop${busy === 1 ? '' : 's'}` : ''}`);
  clearReports(root);
  const started = Date.now();
  let failedSteps = 0;
  for (const args of steps) if ((await pnpm(args)) !== 0) failedSteps += 1;
  const result = readResults(root);
  for (const name of new Set(result.failures)) failedIn.set(name, (failedIn.get(name) ?? 0) + 1);
  for (const [i, name] of result.failures.entries())
    log(`run ${run} failed: ${name}\n  ${result.reasons[i]}`);
  // A step that failed with no failed test in any report (a crash before reporting) still counts.
  if (failedSteps > 0 && result.failures.length === 0) {
    const name = '(a test step failed without a failed test in its report)';
    failedIn.set(name, (failedIn.get(name) ?? 0) + 1);
  }
  const line = `tests: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`;
  totals.push(line);
  log(`run ${run}: ${line} (${Math.round((Date.now() - started) / 1000)} s)`);
}
stopLoops();

process.stdout.write(
  `\n${runs} run${runs === 1 ? '' : 's'}${busy > 0 ? `, ${busy} busy loops` : ''}${filters.length > 0 ? `, ${filters.join(' ')}` : ''}:\n`,
);
for (const [index, line] of totals.entries()) process.stdout.write(`  run ${index + 1}: ${line}\n`);
if (failedIn.size === 0) {
  process.stdout.write('no test failed in any run\n');
  process.exit(0);
}
process.stdout.write(`tests that failed at least once (${failedIn.size}):\n`);
const sorted = [...failedIn].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
for (const [name, times] of sorted) process.stdout.write(`  ${times}/${runs}  ${name}\n`);
process.exit(1);
