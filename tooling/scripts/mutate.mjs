#!/usr/bin/env node
// `pnpm mutate --filter <pkg>`: StrykerJS on one package (its stryker.config.mjs), then a
// second look at every surviving mutant that runs at module load (see verify-static.mjs).
//   pnpm mutate --filter @procmux/key-encoder
//   pnpm mutate --filter @procmux/transcript --part lines   (one part of a config's `parts`)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MUTATION_PART_ENV } from '../stryker.shared.mjs';

const root = new URL('../../', import.meta.url).pathname;
const args = process.argv.slice(2);
const at = args.indexOf('--filter');
const withPackage = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'stryker.config.mjs')),
);
if (at === -1 || args[at + 1] === undefined) {
  console.error(`usage: pnpm mutate --filter <package>; packages with a config: ${withPackage.join(', ')}`);
  process.exit(2);
}
const name = args[at + 1].replace(/^@procmux\//, '');
if (!withPackage.includes(name)) {
  console.error(`no stryker.config.mjs for "${args[at + 1]}"; packages with one: ${withPackage.join(', ')}`);
  process.exit(2);
}
const partAt = args.indexOf('--part');
if (partAt !== -1 && args[partAt + 1] === undefined) {
  console.error("usage: --part <name>, one of the parts in the package's stryker.config.mjs");
  process.exit(2);
}
const taken = new Set([at, at + 1, ...(partAt === -1 ? [] : [partAt, partAt + 1])]);
const rest = args.filter((_, i) => !taken.has(i));
// The config, Stryker and verify-static all read the part from the environment.
if (partAt !== -1) process.env[MUTATION_PART_ENV] = args[partAt + 1];
const bin = join(root, 'node_modules/.bin');
const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
const run = (cmd, cmdArgs) => spawnSync(cmd, cmdArgs, { cwd: root, env, stdio: 'inherit' }).status ?? 1;

let config;
try {
  ({ default: config } = await import(join(root, 'packages', name, 'stryker.config.mjs')));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
}
const reportFile = join(root, config.jsonReporter.fileName);
const before = existsSync(reportFile) ? statSync(reportFile).mtimeMs : 0;
const stryker = run('stryker', ['run', `packages/${name}/stryker.config.mjs`, ...rest]);
// Stryker also exits non-zero below thresholds.break, but it may count crashed-load mutants as
// survivors; the floor is judged after they are verified. No fresh report means it failed.
if (!existsSync(reportFile) || statSync(reportFile).mtimeMs === before) process.exit(stryker || 1);
process.exit(run('node', [join(root, 'tooling/scripts/verify-static.mjs'), name]));
