#!/usr/bin/env node
// One entry for a fresh machine with only Node >= 20 and git: brings pnpm (from npm, not
// corepack, which cannot verify this registry's signatures), installs, then runs a job.
//   node tooling/scripts/bootstrap.mjs setup|demo|test
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearReports, readResults } from './vitest-results.mjs';

const root = new URL('../../', import.meta.url).pathname;
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const job = process.argv[2] ?? 'setup';
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };

function log(message) {
  process.stdout.write(`\x1b[1m[procmux]\x1b[0m ${message}\n`);
}

function version(cmd, args) {
  try {
    return execFileSync(cmd, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function ensurePnpm() {
  const local = join(root, 'tooling/.pnpm/node_modules/.bin');
  env.PATH = `${local}:${join(root, 'node_modules/.bin')}:${env.PATH ?? ''}`;
  if (version('pnpm', ['--version']) === pinned) return;
  log(`installing pnpm ${pinned} from npm into tooling/.pnpm`);
  run('npm', [
    'install',
    '--no-save',
    '--no-package-lock',
    '--prefix',
    join(root, 'tooling/.pnpm'),
    `pnpm@${pinned}`,
  ]);
}

// node-gyp must build node-pty against the machine's headers when it cannot download them;
// npm knows where they are (`nodedir`), pnpm only reads it from the environment.
function ensureNodedir() {
  if (env.npm_config_nodedir) return;
  const nodedir = version('npm', ['config', 'get', 'nodedir']);
  if (nodedir && nodedir !== 'undefined' && nodedir !== 'null') env.npm_config_nodedir = nodedir;
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function must(cmd, args) {
  const code = run(cmd, args);
  if (code !== 0) {
    log(`failed: ${cmd} ${args.join(' ')} (exit ${code})`);
    process.exit(code);
  }
}

function install() {
  ensurePnpm();
  ensureNodedir();
  const frozen = existsSync(join(root, 'pnpm-lock.yaml')) ? ['--frozen-lockfile'] : [];
  must('pnpm', ['install', ...frozen]);
}

install();
if (job === 'setup') {
  must('pnpm', ['exec', 'turbo', 'run', 'build']);
} else if (job === 'demo') {
  must('pnpm', ['exec', 'turbo', 'run', 'build']);
  const cli = join(root, 'packages/mcp/dist/cli.js');
  if (!existsSync(cli)) {
    log('procmux demo has not landed yet: install and build done');
    process.exit(0);
  }
  process.exit(run(process.execPath, [cli, 'demo']));
} else if (job === 'test') {
  clearReports(root);
  const steps = [
    ['build', ['exec', 'turbo', 'run', 'build']],
    ['lint', ['exec', 'biome', 'check', '.']],
    ['typecheck', ['exec', 'turbo', 'run', 'typecheck', '--continue']],
    ['unit tests', ['exec', 'turbo', 'run', 'test', '--continue', '--concurrency=2']],
    ['e2e tests', ['exec', 'turbo', 'run', 'test:e2e', '--continue', '--concurrency=1']],
  ];
  const failedSteps = [];
  for (const [name, args] of steps) {
    log(name);
    if (run('pnpm', args) !== 0) {
      failedSteps.push(name);
      if (name === 'build') break;
    }
  }
  // One closing line CI reads: a failed test counts once, a file that failed to load once.
  const { passed, failed, skipped, failures, reasons } = readResults(root);
  if (failedSteps.length > 0) log(`failed steps: ${failedSteps.join(', ')}`);
  for (const [i, name] of failures.entries()) process.stdout.write(`failed: ${name}\n  ${reasons[i]}\n`);
  process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  process.exit(failedSteps.length > 0 || failed > 0 ? 1 : 0);
} else {
  log(`unknown job "${job}": use setup, demo or test`);
  process.exit(2);
}
