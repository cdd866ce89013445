#!/usr/bin/env node
// The consumer-install test: every public package published with pnpm to a throwaway local
// registry, then installed with npm in clean directories the way a user would, and driven.
// Exits 1 when any scenario fails. Needs built packages (`pnpm build`).
//   node tooling/consumer-install/run.mjs [--keep] [--with-npx]
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diskBytes, mib, packageCount, scopeMembers } from './measure.mjs';
import { npmConfig, startRegistry } from './registry.mjs';
import { SCENARIOS } from './scenarios.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const probes = fileURLToPath(new URL('./probes/', import.meta.url));
const keep = process.argv.includes('--keep');
const scenarios = SCENARIOS.filter((s) => s.optIn === undefined || process.argv.includes(s.optIn));
const log = (message) => process.stdout.write(`\x1b[1m[consumer-install]\x1b[0m ${message}\n`);

function publicPackages() {
  return readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true);
}

/** Runs a command with a deadline; resolves to { ok, status, output, ms }. */
function run(cmd, args, { cwd, env, timeoutMs }) {
  const started = Date.now();
  const result = spawnSync(cmd, args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const timedOut = result.error?.code === 'ETIMEDOUT';
  return {
    ok: result.status === 0 && !timedOut,
    status: timedOut ? `timed out after ${timeoutMs} ms` : `exit ${result.status ?? result.signal}`,
    output,
    ms: Date.now() - started,
  };
}

// npx installs into <cache>/_npx/<hash>: its packages and size, measured like a project's.
function npxFigures(dir) {
  const npx = join(dir, '.npm-cache/_npx');
  const install = existsSync(npx) ? readdirSync(npx).map((name) => join(npx, name))[0] : undefined;
  if (install === undefined) return {};
  return { packages: packageCount(install), bytes: diskBytes(join(install, 'node_modules')) };
}

function tail(text, lines = 25) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

async function main() {
  const packages = publicPackages();
  const unbuilt = packages.filter(({ dir }) => !existsSync(join(dir, 'dist/index.js')));
  if (unbuilt.length > 0)
    throw new Error(`build first: no dist/ in ${unbuilt.map((p) => p.manifest.name).join(', ')}`);

  const work = mkdtempSync(join(tmpdir(), 'procmux-consumer-'));
  const nodedir = npmConfig('nodedir');
  const cache = npmConfig('cache');
  const registry = await startRegistry(join(work, 'registry'), log);
  const results = [];
  try {
    // A private npm user config: the registry and its throwaway token, and where node-gyp
    // finds Node's headers (node-pty builds from source on Linux).
    const npmrc = join(work, 'npmrc');
    writeFileSync(
      npmrc,
      [
        `registry=${registry.url}`,
        `//127.0.0.1:${registry.port}/:_authToken=${registry.token}`,
        nodedir ? `nodedir=${nodedir}` : '',
        cache ? `cache=${cache}` : '',
        'fund=false',
        'audit=false',
        'update-notifier=false',
        '',
      ].join('\n'),
    );
    const env = {
      ...process.env,
      PATH: `${join(root, 'tooling/.pnpm/node_modules/.bin')}:${process.env.PATH ?? ''}`,
      npm_config_userconfig: npmrc,
      npm_config_registry: registry.url,
      ...(nodedir ? { npm_config_nodedir: nodedir } : {}),
      // The probes' `procmux mcp` and demo keep their state here, not in the user's ~/.local/state.
      XDG_STATE_HOME: join(work, 'state'),
    };
    for (const key of Object.keys(env)) if (/^npm_(package|lifecycle)_/.test(key)) delete env[key];

    log(`publishing ${packages.length} packages with pnpm`);
    const published = run('pnpm', ['-r', 'publish', '--no-git-checks', '--registry', registry.url], {
      cwd: root,
      env,
      timeoutMs: 180_000,
    });
    if (!published.ok)
      throw new Error(`pnpm publish failed (${published.status}):\n${tail(published.output)}`);
    log(`published in ${published.ms} ms`);

    for (const scenario of scenarios) {
      const dir = join(work, scenario.name);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'package.json'),
        `${JSON.stringify({ name: `consumer-${scenario.name}`, private: true }, null, 2)}\n`,
      );
      for (const probe of readdirSync(probes)) copyFileSync(join(probes, probe), join(dir, probe));
      log(`${scenario.name}: ${scenario.install ? `npm ${scenario.install.join(' ')}` : 'no install step'}`);
      const scenarioEnv = scenario.freshCache ? { ...env, npm_config_cache: join(dir, '.npm-cache') } : env;
      const install = scenario.install
        ? run('npm', scenario.install, { cwd: dir, env: scenarioEnv, timeoutMs: 360_000 })
        : { ok: true, ms: 0, status: 'skipped', output: '' };
      const result = {
        name: scenario.name,
        install: scenario.install ? `npm ${scenario.install.join(' ')}` : '(npx)',
        ms: install.ms,
        packages: packageCount(dir),
        bytes: diskBytes(join(dir, 'node_modules')),
        procmux: scopeMembers(dir, '@procmux'),
        failures: [],
      };
      results.push(result);
      if (!install.ok) {
        result.failures.push(`${result.install}: ${install.status}\n${tail(install.output)}`);
        continue;
      }
      for (const problem of scenario.expectInstalled?.(result.procmux, dir) ?? [])
        result.failures.push(problem);
      for (const check of scenario.checks) {
        const outcome = run(check.cmd, check.args, {
          cwd: dir,
          env: scenarioEnv,
          timeoutMs: check.timeoutMs ?? 120_000,
        });
        const missing = (check.expect ?? []).filter((pattern) => !pattern.test(outcome.output));
        if (!outcome.ok || missing.length > 0) {
          result.failures.push(
            `${check.cmd} ${check.args.join(' ')}: ${outcome.status}` +
              (missing.length > 0 ? `, output lacks ${missing.join(', ')}` : '') +
              `\n${tail(outcome.output)}`,
          );
        } else {
          log(`  ${check.cmd} ${check.args.join(' ')}: ok (${outcome.ms} ms)`);
        }
        if (!scenario.install) Object.assign(result, npxFigures(dir), { ms: outcome.ms });
      }
    }
  } finally {
    registry.stop();
    if (!keep) rmSync(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }

  log('scenario | install | time | packages | node_modules | @procmux installed | result');
  for (const r of results) {
    log(
      `${r.name} | ${r.install} | ${(r.ms / 1000).toFixed(1)} s | ${r.packages} | ${mib(r.bytes)} | ` +
        `${r.procmux.length} | ${r.failures.length === 0 ? 'ok' : 'FAILED'}`,
    );
  }
  const failed = results.filter((r) => r.failures.length > 0);
  for (const r of failed) for (const failure of r.failures) log(`FAILED ${r.name}: ${failure}`);
  if (failed.length > 0 || results.length < scenarios.length) process.exit(1);
  log(`all ${results.length} scenarios passed`);
}

main().catch((error) => {
  log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
