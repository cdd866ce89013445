#!/usr/bin/env node
// The honest score of a Stryker run, from its JSON report:
// - A mutant counts as killed only when a test failed on an assertion. Stryker's `Killed` is a
//   failed test. Its `Timeout` and `RuntimeError` say only that the run hung or crashed, and a
//   `Survived` static mutant (one that runs at module load) may be a test file that failed to
//   load (Stryker's vitest runner reads per-test results, so a file with no tests scores
//   "survived"). Each of those is applied to the real source in turn and the package's tests
//   run as a user would (vitest run, JSON report): killed if a test failed with an
//   AssertionError; otherwise it stays what it was (timeout, crash, survived), undetected.
// - The survivors the package's stryker.config.mjs lists as equivalent (its `equivalent`
//   export: no test can tell them from the original) are set aside, each named by file, line,
//   column, mutator and replacement, so a new survivor on a listed line is never hidden. A
//   mutant no test covers (NoCoverage) is never set aside. An entry that names no mutant of
//   the run fails the run (the source moved: re-derive it with --survivors).
// It prints the score and enforces thresholds.break against it.
//   node tooling/scripts/verify-static.mjs <package-dir-name>
//   node tooling/scripts/verify-static.mjs <package-dir-name> --survivors   (entries to review)
//   node tooling/scripts/verify-static.mjs <package-dir-name> --part <name>  (one part's report;
//     entries naming a file outside the part are left for the runs that mutate it)
//   node tooling/scripts/verify-static.mjs <package-dir-name> --no-rerun  (a floor: nothing is
//     re-run, so every timeout, crash and static survivor counts as not killed)
// The re-runs apply mutants to the real source, so one worktree runs one at a time; a hung one
// costs the whole run limit. To spread them over worktrees (clones of the same commit, each with
// the report copied in), give each a share, then score from their outcomes:
//   ... --shard 1/2 --outcomes-out a.json    (in clone A: re-runs every second mutant, scores nothing)
//   ... --shard 2/2 --outcomes-out b.json    (in clone B)
//   ... --outcomes a.json,b.json             (anywhere: scores with what the shards saw)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { MUTATION_PART_ENV } from '../stryker.shared.mjs';
import { checkEquivalents, endOf, keyOf, mutantKey } from './mutants.mjs';

const root = new URL('../../', import.meta.url).pathname;
const name = process.argv[2];
const listSurvivors = process.argv.includes('--survivors');
const noRerun = process.argv.includes('--no-rerun');
const partAt = process.argv.indexOf('--part');
if (partAt !== -1) process.env[MUTATION_PART_ENV] = process.argv[partAt + 1] ?? '';
const part = process.env[MUTATION_PART_ENV] || undefined;
const dir = join(root, 'packages', name);
const flagValue = (flag) => {
  const at = process.argv.indexOf(flag);
  return at === -1 ? undefined : (process.argv[at + 1] ?? '');
};
/** This worktree's share of the re-runs: [k, n], the k-th of every n (1-based). */
const shard = (() => {
  const text = flagValue('--shard');
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [k, n] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!(n >= 1 && k >= 1 && k <= n)) {
    console.error(`[verify-static] --shard takes k/n with 1 <= k <= n (e.g. 1/2), not "${text}"`);
    process.exit(2);
  }
  return [k, n];
})();
const outcomesOut = flagValue('--outcomes-out');
if ((shard === undefined) !== (outcomesOut === undefined)) {
  console.error('[verify-static] --shard and --outcomes-out go together (a shard scores nothing itself)');
  process.exit(2);
}
/** Outcomes of re-runs the shards made, by mutant key and end: used instead of running them here. */
const recorded = new Map(
  (flagValue('--outcomes') ?? '')
    .split(',')
    .filter((f) => f !== '')
    .flatMap((f) => Object.entries(JSON.parse(readFileSync(f, 'utf8')))),
);
if (recorded.size > 0 && (shard !== undefined || noRerun)) {
  console.error('[verify-static] --outcomes scores from recorded re-runs: not with --shard or --no-rerun');
  process.exit(2);
}
/** @type {{ default: object, equivalent?: import('./mutants.mjs').Equivalent[] }} */
const { default: config, equivalent = [] } = await import(join(dir, 'stryker.config.mjs'));
checkEquivalents(equivalent);
const report = JSON.parse(readFileSync(join(root, config.jsonReporter.fileName), 'utf8'));
/** Test files by the ids the report gives tests (a mutant's coveredBy). */
const fileOfTest = new Map();
for (const [testFile, { tests }] of Object.entries(report.testFiles ?? {})) {
  for (const test of tests) fileOfTest.set(test.id, testFile);
}
/** A hung run ends after this long: 3 times an unmutated run of the whole suite, 30 s at least. */
let runLimitMs = 600_000;

// Report locations are 1-based lines and columns.
function offsetOf(text, { line, column }) {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

/**
 * Runs the package's tests; resolves 'assertion' when a test failed on an assertion, else
 * 'passed', 'crashed' (a failure that is no assertion: a load error, an exception, a test
 * timeout) or 'hung' (ended after runLimitMs, its whole process group with it). `files`: only
 * these test files (those covering the mutant), else all.
 */
function runTests(files = []) {
  const out = mkdtempSync(join(tmpdir(), 'procmux-verify-'));
  const file = join(out, 'vitest.json');
  const vitest = join(root, 'node_modules/.bin/vitest');
  return new Promise((resolve) => {
    const child = spawn(vitest, ['run', ...files], {
      cwd: dir,
      env: { ...process.env, PROCMUX_TEST_RESULT_FILE: file },
      stdio: 'ignore',
      detached: true,
    });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, runLimitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      let outcome = hung ? 'hung' : code === 0 ? 'passed' : 'crashed';
      try {
        const results = JSON.parse(readFileSync(file, 'utf8'));
        const failures = results.testResults
          .flatMap((f) => f.assertionResults)
          .filter((t) => t.status === 'failed')
          .flatMap((t) => t.failureMessages);
        if (failures.some((message) => /\bAssertionError\b/.test(message))) outcome = 'assertion';
      } catch {}
      rmSync(out, { recursive: true, force: true });
      resolve(outcome);
    });
  });
}

// The mutant is written into the real source: put it back however this process ends, and
// run nothing else on this worktree meanwhile.
let restore = () => {};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    restore();
    process.exit(130);
  });
}

/** Applies the mutant to `path`, runs the tests, restores the file (and its times). */
async function realRun(path, original, mutant) {
  const start = offsetOf(original, mutant.location.start);
  const end = offsetOf(original, mutant.location.end);
  // The original text and times come back, so no build thinks src/ changed.
  const { atime, mtime } = statSync(path);
  restore = () => {
    writeFileSync(path, original);
    utimesSync(path, atime, mtime);
  };
  writeFileSync(path, original.slice(0, start) + mutant.replacement + original.slice(end));
  // A static mutant runs at load: every file may notice. Otherwise the files covering it.
  const covering = mutant.static
    ? []
    : [...new Set((mutant.coveredBy ?? []).map((id) => fileOfTest.get(id)))];
  try {
    return await runTests(
      covering.filter((f) => f !== undefined).map((f) => (isAbsolute(f) ? f : join(root, f))),
    );
  } finally {
    restore();
    restore = () => {};
  }
}

const RERUN = new Set(['Timeout', 'RuntimeError']);
const needsRun = (m) => !noRerun && (RERUN.has(m.status) || (m.status === 'Survived' && m.static));
/** Whether this worktree re-runs the `index`-th mutant that needs a run (its shard's share). */
const mine = (index) => shard === undefined || index % shard[1] === shard[0] - 1;
if (recorded.size === 0 && Object.values(report.files).some((entry) => entry.mutants.some(needsRun))) {
  const began = Date.now();
  const baseline = await runTests();
  if (baseline !== 'passed') {
    console.error(
      `[verify-static] ${name}: the tests do not pass without a mutant (${baseline}); nothing can be verified`,
    );
    process.exit(1);
  }
  runLimitMs = Math.max(30_000, 3 * (Date.now() - began));
}
const counts = { killed: 0, survived: 0, timeout: 0, crashed: 0, noCoverage: 0, invalid: 0, ignored: 0 };
let verifiedKilled = 0;
/** Undetected mutants by key and end, with the status they count under. */
const undetected = new Map();
/** Every mutant of the run by five-field key: its ends, each with its final status. */
const all = new Map();
const prefix = `packages/${name}/`;
/** What this shard's re-runs showed, by mutant key and end (written to --outcomes-out). */
const outcomes = {};
let needing = 0;
const missing = [];
for (const [reportFile, entry] of Object.entries(report.files)) {
  const path = join(root, reportFile);
  const file = reportFile.startsWith(prefix) ? reportFile.slice(prefix.length) : reportFile;
  const original = readFileSync(path, 'utf8');
  for (const mutant of entry.mutants) {
    let status = mutant.status;
    const where = `${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} -> ${JSON.stringify(mutant.replacement)}`;
    if (needsRun(mutant)) {
      const id = `${mutantKey(file, mutant)} ${endOf(mutant)}`;
      const index = needing++;
      if (!mine(index)) continue;
      const outcome = recorded.size > 0 ? recorded.get(id) : await realRun(path, original, mutant);
      if (outcome === undefined) {
        missing.push(where);
        continue;
      }
      outcomes[id] = outcome;
      if (outcome === 'assertion') {
        verifiedKilled++;
        console.log(
          `[verify-static] ${status}, killed on a real run (a test failed on an assertion): ${where}`,
        );
        status = 'Killed';
      } else {
        console.log(`[verify-static] ${status}, not killed on a real run (${outcome}): ${where}`);
        // What the real run showed is what counts: every test passing is a survivor (which an
        // `equivalent` entry may then set aside), a hang a timeout, any other failure a crash.
        status = { passed: 'Survived', hung: 'Timeout', crashed: 'RuntimeError' }[outcome];
      }
    }
    const key = mutantKey(file, mutant);
    all.set(key, [...(all.get(key) ?? []), { end: endOf(mutant), status }]);
    if (status === 'Killed') counts.killed++;
    else if (status === 'Survived') counts.survived++;
    else if (status === 'Timeout') counts.timeout++;
    else if (status === 'RuntimeError') counts.crashed++;
    else if (status === 'NoCoverage') counts.noCoverage++;
    else if (status === 'Ignored') counts.ignored++;
    else counts.invalid++; // CompileError: not a mutant of the program, as Stryker scores it
    if (['Survived', 'Timeout', 'RuntimeError', 'NoCoverage'].includes(status)) {
      undetected.set(`${key} ${endOf(mutant)}`, { status, mutant, file });
    }
  }
}

if (shard !== undefined) {
  writeFileSync(outcomesOut, JSON.stringify(outcomes, null, 1));
  console.log(
    `[verify-static] ${name}: shard ${shard.join('/')}: ${Object.keys(outcomes).length} of ${needing} re-runs made, outcomes in ${outcomesOut}; score with --outcomes`,
  );
  process.exit(0);
}
if (missing.length > 0) {
  console.error(
    `[verify-static] ${name}: ${missing.length} mutants that need a re-run have no recorded outcome (a shard missing?):\n  ${missing.join('\n  ')}`,
  );
  process.exit(1);
}

// Set aside only survivors named exactly; anything else an entry names is reported.
let equivalents = 0;
const stale = [];
// A part's run mutates only its files: the entries of the others wait for their own runs.
const mutatedFiles = new Set(
  Object.keys(report.files).map((f) => (f.startsWith(prefix) ? f.slice(prefix.length) : f)),
);
const outside = part === undefined ? [] : equivalent.filter((entry) => !mutatedFiles.has(entry.file));
for (const entry of equivalent) {
  if (outside.includes(entry)) continue;
  const key = keyOf(entry);
  const found = (all.get(key) ?? []).filter((m) => entry.end === undefined || m.end === entry.end);
  if (found.length === 0) {
    stale.push(
      `${key}${entry.end ? ` end ${entry.end}` : ''}: no such mutant in this run (the source moved?)`,
    );
  } else if (found.length > 1) {
    stale.push(`${key}: ${found.length} mutants share it; add end (${found.map((m) => m.end).join(' or ')})`);
  } else if (found[0].status === 'Survived') {
    undetected.delete(`${key} ${found[0].end}`);
    counts.survived--;
    equivalents++;
  } else {
    console.log(`[verify-static] listed as equivalent but ${found[0].status}, so counted as it is: ${key}`);
  }
}

if (listSurvivors) {
  const open = [...undetected.values()].filter((u) => u.status === 'Survived');
  console.log(`[verify-static] ${open.length} survivors not listed as equivalent:`);
  for (const { mutant, file } of open) {
    const { line, column } = mutant.location.start;
    const shared = all.get(mutantKey(file, mutant)).length > 1 ? `, end: '${endOf(mutant)}'` : '';
    console.log(
      `  { file: '${file}', line: ${line}, column: ${column}, mutator: '${mutant.mutatorName}', replacement: ${JSON.stringify(mutant.replacement)}${shared}, why: '' },`,
    );
  }
}

const detected = counts.killed;
const valid = detected + counts.survived + counts.timeout + counts.crashed + counts.noCoverage;
const score = valid === 0 ? 100 : (detected / valid) * 100;
const floor = config.thresholds?.break ?? 0;
if (outside.length > 0) {
  console.log(
    `[verify-static] ${name}: part ${part}; ${outside.length} equivalent entries name files outside it, not checked here`,
  );
}
console.log(
  `[verify-static] ${name}${part === undefined ? '' : ` (part ${part})`}${noRerun ? ' (a floor: nothing re-run)' : ''}: ${score.toFixed(2)}% (killed ${counts.killed}, survived ${counts.survived}, timeout ${counts.timeout}, crashed ${counts.crashed}, no coverage ${counts.noCoverage}; equivalent ${equivalents}, invalid ${counts.invalid}, ignored ${counts.ignored}; ${verifiedKilled} re-run and killed on an assertion) floor ${floor}%`,
);
if (stale.length > 0) {
  console.error(
    `[verify-static] ${name}: ${stale.length} equivalent entries name no mutant:\n  ${stale.join('\n  ')}`,
  );
  process.exit(1);
}
if (score < floor) {
  console.error(
    `[verify-static] ${name}: mutation score ${score.toFixed(2)}% is below the floor of ${floor}%`,
  );
  process.exit(1);
}
