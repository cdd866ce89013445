// Reads the vitest JSON reports every workspace package writes to test-results/ (see
// tooling/vitest.shared.ts): the totals of the closing line, and which tests failed.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Directories that may hold a test-results/ folder: every workspace package. */
export function workspaceDirs(root) {
  const dirs = [join(root, 'test-e2e'), join(root, 'bench'), join(root, 'tooling/test-utils')];
  const packages = join(root, 'packages');
  if (existsSync(packages)) for (const name of readdirSync(packages)) dirs.push(join(packages, name));
  return dirs.filter((dir) => existsSync(dir) && statSync(dir).isDirectory());
}

export function clearReports(root) {
  for (const dir of workspaceDirs(root)) rmSync(join(dir, 'test-results'), { recursive: true, force: true });
}

/**
 * Totals over every report, and each failure as "file > test name". A file that failed with no
 * failed test in it (it did not load, a hook threw) is one failure of its own, named
 * "file > (the file itself)"; a failed test is never counted again as its file's failure.
 */
export function readResults(root) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  const reasons = [];
  for (const dir of workspaceDirs(root)) {
    const results = join(dir, 'test-results');
    if (!existsSync(results)) continue;
    for (const file of readdirSync(results)) {
      if (!file.endsWith('.json')) continue;
      const report = JSON.parse(readFileSync(join(results, file), 'utf8'));
      passed += report.numPassedTests ?? 0;
      skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
      for (const suite of report.testResults ?? []) {
        const where = relative(root, suite.name ?? dir)
          .split('\\')
          .join('/');
        const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
        for (const test of failedTests) {
          failures.push(`${where} > ${test.fullName ?? test.title}`);
          reasons.push(firstLine(test.failureMessages));
        }
        if (failedTests.length === 0 && suite.status === 'failed') {
          failures.push(`${where} > (the file itself)`);
          reasons.push(firstLine([suite.message]));
        }
        failed += failedTests.length === 0 && suite.status === 'failed' ? 1 : failedTests.length;
      }
    }
  }
  return { passed, failed, skipped, failures, reasons };
}

// CI keeps only the tail of a run: the closing lines carry each failure's first message line.
function firstLine(messages) {
  const text = (messages ?? []).find((m) => typeof m === 'string' && m.trim() !== '') ?? '';
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '(no message)';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line.trim();
}
