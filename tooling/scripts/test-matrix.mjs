#!/usr/bin/env node
// How many tests each CI leg runs, from the filter logic and the packages each leg of
// .github/workflows/ci.yml selects (both in tooling/platform-tests.mjs): `vitest list` once per package here,
// then each OS's left-out files subtracted. Tests that skip themselves inside a file
// (describe.skipIf) are counted as run.   node tooling/scripts/test-matrix.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { excludedOn, legRuns } from '../platform-tests.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const dirs = [...readdirSync(join(root, 'packages')).map((name) => `packages/${name}`), 'test-e2e'].filter(
  (dir) => existsSync(join(root, dir, 'vitest.config.ts')),
);

const LEGS = ['linux', 'darwin', 'win32'];

function listTests(dir) {
  const result = spawnSync(process.execPath, [vitest, 'list', '--json'], {
    cwd: join(root, dir),
    encoding: 'utf8',
    env: { ...process.env, PROCMUX_COVERAGE: '0', PROCMUX_TEST_PLATFORM: 'any' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const json = result.stdout.slice(result.stdout.indexOf('['));
  if (result.status !== 0 || !json) throw new Error(`vitest list failed in ${dir}:\n${result.stderr}`);
  return JSON.parse(json).map((test) => relative(join(root, dir), test.file).split('\\').join('/'));
}

const totals = { linux: 0, darwin: 0, win32: 0 };
const rows = [];
for (const dir of dirs) {
  const files = listTests(dir);
  const row = { dir };
  for (const os of LEGS) {
    if (!legRuns(dir, os)) {
      row[os] = '-';
      continue;
    }
    const out = new Set(excludedOn(dir, os).map((e) => e.file));
    const count = files.filter((file) => !out.has(file)).length;
    row[os] = count;
    totals[os] += count;
  }
  rows.push(row);
  process.stdout.write(
    `${dir.padEnd(30)} linux ${String(row.linux).padStart(4)}  macOS ${String(row.darwin).padStart(4)}  Windows ${String(row.win32).padStart(4)}\n`,
  );
}
process.stdout.write(
  `${'total'.padEnd(30)} linux ${String(totals.linux).padStart(4)}  macOS ${String(totals.darwin).padStart(4)}  Windows ${String(totals.win32).padStart(4)}\n`,
);
