#!/usr/bin/env node
// Stryker's vitest runner reads per-test results only: a mutant that makes a module throw while
// loading leaves its test file with no tests, and is scored "survived". Such a mutant always
// runs at module load, so Stryker marks it static. This applies each surviving static mutant to
// the real source in turn, runs the package's tests as a user would (vitest run), and counts it
// killed when they fail. It then sets aside the survivors the package's stryker.config.mjs
// lists as equivalent (its `equivalent` export: no test can tell them from the original),
// prints the honest score and enforces thresholds.break against it.
//   node tooling/scripts/verify-static.mjs <package-dir-name>
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const name = process.argv[2];
const dir = join(root, 'packages', name);
/** @type {{ default: object, equivalent?: { file: string, line: string, survivors: number, why: string }[] }} */
const { default: config, equivalent = [] } = await import(join(dir, 'stryker.config.mjs'));
const report = JSON.parse(readFileSync(join(root, config.jsonReporter.fileName), 'utf8'));

// Report locations are 1-based lines and columns.
function offsetOf(text, { line, column }) {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

function testsFail() {
  const vitest = join(root, 'node_modules/.bin/vitest');
  const result = spawnSync(vitest, ['run', '--bail=1', '--reporter=dot'], {
    cwd: dir,
    env: process.env,
    encoding: 'utf8',
    timeout: 300_000,
  });
  return result.status !== 0;
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

const counts = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, ignored: 0, other: 0 };
let verifiedKilled = 0;
// Survivors (and mutants without coverage) by file and trimmed source line, for `equivalent`.
const standing = new Map();
for (const [file, entry] of Object.entries(report.files)) {
  const path = join(root, file);
  const original = readFileSync(path, 'utf8');
  for (const mutant of entry.mutants) {
    let status = mutant.status;
    if (status === 'Survived' && mutant.static) {
      const start = offsetOf(original, mutant.location.start);
      const end = offsetOf(original, mutant.location.end);
      // The original text and times come back, so no build thinks src/ changed.
      const { atime, mtime } = statSync(path);
      restore = () => {
        writeFileSync(path, original);
        utimesSync(path, atime, mtime);
      };
      writeFileSync(path, original.slice(0, start) + mutant.replacement + original.slice(end));
      try {
        if (testsFail()) {
          status = 'Killed';
          verifiedKilled++;
          console.log(
            `[verify-static] killed on a real run: ${file}:${mutant.location.start.line} ${mutant.mutatorName} -> ${mutant.replacement}`,
          );
        } else {
          console.log(
            `[verify-static] survives a real run too: ${file}:${mutant.location.start.line} ${mutant.mutatorName} -> ${mutant.replacement}`,
          );
        }
      } finally {
        restore();
        restore = () => {};
      }
    }
    if (status === 'Survived' || status === 'NoCoverage') {
      const key = `${file}\n${original.split('\n')[mutant.location.start.line - 1].trim()}`;
      standing.set(key, [...(standing.get(key) ?? []), status]);
    }
    if (status === 'Killed') counts.killed++;
    else if (status === 'Survived') counts.survived++;
    else if (status === 'Timeout') counts.timeout++;
    else if (status === 'NoCoverage') counts.noCoverage++;
    else if (status === 'Ignored') counts.ignored++;
    else counts.other++;
  }
}

// An entry names a source line and how many survivors on it are judged equivalent (fewer may
// survive a run: under load a slow one times out). A line left with more survivors than that
// is not set aside at all, so a new survivor there is never hidden.
let equivalents = 0;
for (const entry of equivalent) {
  const key = `packages/${name}/${entry.file}\n${entry.line.trim()}`;
  const found = standing.get(key) ?? [];
  if (found.length > entry.survivors || found.length === 0) {
    console.log(
      `[verify-static] not set aside: ${entry.file} "${entry.line}" lists ${entry.survivors} equivalent survivors, the run left ${found.length}`,
    );
    continue;
  }
  standing.delete(key);
  equivalents += found.length;
  for (const status of found) {
    if (status === 'Survived') counts.survived--;
    else counts.noCoverage--;
  }
}

const detected = counts.killed + counts.timeout;
const valid = detected + counts.survived + counts.noCoverage;
const score = valid === 0 ? 100 : (detected / valid) * 100;
const floor = config.thresholds?.break ?? 0;
console.log(
  `[verify-static] ${name}: ${score.toFixed(2)}% (killed ${counts.killed}, timeout ${counts.timeout}, survived ${counts.survived}, no coverage ${counts.noCoverage}, equivalent ${equivalents}, ignored ${counts.ignored}, errors ${counts.other}; ${verifiedKilled} static survivors killed on a real run) floor ${floor}%`,
);
if (score < floor) {
  console.error(
    `[verify-static] ${name}: mutation score ${score.toFixed(2)}% is below the floor of ${floor}%`,
  );
  process.exit(1);
}
