#!/usr/bin/env node
// The release, rehearsed on a throwaway copy of the workspace: `changeset version` applies the
// pending changesets, `pnpm publish --dry-run -r` must succeed, and every packed tarball must
// be one a consumer can install and load (check-tarball.mjs). Exits 1 on any problem.
// Needs built packages (`pnpm build`).
//   node tooling/consumer-install/release-dry-run.mjs [--keep]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkUnpackedPackage } from './check-tarball.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const keep = process.argv.includes('--keep');
const log = (message) => process.stdout.write(`\x1b[1m[release-dry-run]\x1b[0m ${message}\n`);
const env = {
  ...process.env,
  PATH: `${join(root, 'tooling/.pnpm/node_modules/.bin')}:${process.env.PATH ?? ''}`,
};
for (const key of Object.keys(env)) if (/^npm_(package|lifecycle)_/.test(key)) delete env[key];

function must(cmd, args, cwd) {
  const result = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
      .split('\n')
      .filter((line) => !line.startsWith('npm notice'))
      .slice(-30)
      .join('\n');
    throw new Error(
      `${cmd} ${args.join(' ')} failed (${result.status ?? result.error?.message}):\n${output}`,
    );
  }
  return result.stdout;
}

// Everything but installed dependencies, VCS data and local tool installs; dist/ comes along,
// so what is packed is what was built and tested.
const SKIP = new Set(['node_modules', '.git', '.turbo', 'coverage', 'test-results', '.pnpm', '.verdaccio']);

function copyWorkspace(into) {
  cpSync(root, into, {
    recursive: true,
    filter: (source) =>
      !relative(root, source)
        .split(/[\\/]/)
        .some((part) => SKIP.has(part)),
  });
  // pnpm publish resolves `workspace:` ranges through the installed links, and the changeset
  // CLI runs from there: an offline install from the store, without build scripts.
  must('pnpm', ['install', '--offline', '--frozen-lockfile', '--ignore-scripts', '--reporter=silent'], into);
}

function publicPackageDirs(workspace) {
  return readdirSync(join(workspace, 'packages'))
    .map((name) => join(workspace, 'packages', name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .filter((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true);
}

function main() {
  const work = mkdtempSync(join(tmpdir(), 'procmux-release-'));
  try {
    const copy = join(work, 'workspace');
    copyWorkspace(copy);
    const before = publicPackageDirs(copy).map((dir) =>
      JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
    );
    must('pnpm', ['exec', 'changeset', 'version'], copy);
    const dirs = publicPackageDirs(copy);
    const manifests = dirs.map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
    const bumped = manifests
      .filter((m, i) => m.version !== before[i]?.version)
      .map((m) => `${m.name}@${m.version}`);
    log(`changeset version: ${bumped.length > 0 ? bumped.join(', ') : 'no pending changesets'}`);

    must('pnpm', ['-r', 'publish', '--dry-run', '--no-git-checks'], copy);
    log(`pnpm publish --dry-run -r: ok (${dirs.length} packages)`);

    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    const publicNames = new Set(manifests.map((m) => m.name));
    const problems = [];
    for (const dir of dirs) {
      const before = new Set(readdirSync(tarballs));
      must('pnpm', ['pack', '--pack-destination', tarballs], dir);
      const tarball = readdirSync(tarballs).find((name) => !before.has(name) && name.endsWith('.tgz'));
      const unpacked = join(work, 'unpacked', tarball.replace(/\.tgz$/, ''));
      mkdirSync(unpacked, { recursive: true });
      must('tar', ['-xzf', join(tarballs, tarball), '-C', unpacked], work);
      const found = checkUnpackedPackage(join(unpacked, 'package'), publicNames);
      for (const problem of found) problems.push(`${tarball}: ${problem}`);
    }
    for (const problem of problems) log(`BROKEN ${problem}`);
    if (problems.length > 0) throw new Error(`${problems.length} problems in the packed tarballs`);
    log(`${dirs.length} tarballs checked: exports, main, types, bin, LICENSE, source maps, relative imports`);
  } finally {
    if (keep) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
