// Shared vitest settings: every package's vitest.config.ts spreads this so reports and
// coverage look the same everywhere, and the bootstrap can sum results into one line.
import { existsSync, readdirSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { excludedOn, testPlatform } from './platform-tests.mjs';

const packagesDir = fileURLToPath(new URL('../packages/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../', import.meta.url));

// Test files that cannot run on this OS (platform-tests.mjs), each named with its reason.
function platformExcludes(): string[] {
  const dir = relative(repoRoot, process.cwd()).split('\\').join('/');
  const platform = testPlatform();
  const excluded = excludedOn(dir, platform);
  for (const { file, reason } of excluded)
    console.info(`[procmux] ${dir}/${file} not run on ${platform}: ${reason}`);
  return excluded.map(({ file }) => file);
}

// Unit tests run against the sources of sibling packages, so a change is tested without a
// rebuild (typecheck does the same through the '@procmux/source' export condition).
function sourceAliases() {
  return readdirSync(packagesDir)
    .filter((name) => existsSync(`${packagesDir}${name}/src/index.ts`))
    .map((name) => ({
      find: new RegExp(`^@procmux/${name}$`),
      replacement: `${packagesDir}${name}/src/index.ts`,
    }));
}

export interface PackageTestOptions {
  /** Minimum line coverage for src/, in percent. */
  coverageLines?: number;
  /** Test file globs; unit tests by default. */
  include?: string[];
  /** Per-test timeout, generous: tests must never assert wall-clock speed. */
  testTimeout?: number;
  /** Import sibling packages from their built dist/ (end-to-end suites) instead of src/. */
  useBuilt?: boolean;
  /**
   * Reruns of a failed test. Only for a suite whose engine has a known, measured race outside
   * procmux (backend-tmux: tmux 3.3a now and then leaves a dead pane unreaped); its README says so.
   */
  retry?: number;
  /** Where the JSON result for the summary goes. */
  resultFile?: string;
}

export function packageTestConfig(options: PackageTestOptions = {}) {
  const coverage = options.coverageLines !== undefined && process.env.PROCMUX_COVERAGE !== '0';
  return defineConfig({
    resolve: { alias: options.useBuilt ? [] : sourceAliases() },
    test: {
      // Mutation runs (tooling/stryker.shared.mjs) narrow the suite to the tests of the mutated files.
      include: process.env.PROCMUX_TEST_INCLUDE?.split(',') ?? options.include ?? ['test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...platformExcludes()],
      testTimeout: options.testTimeout ?? 60_000,
      hookTimeout: 60_000,
      // A private XDG_STATE_HOME and temp dir for the run; once every file ran, no procmux
      // cgroup may be left behind (test-utils/src/cgroups.ts).
      globalSetup: [
        fileURLToPath(new URL('./test-state-home.ts', import.meta.url)),
        fileURLToPath(new URL('./test-tmp.ts', import.meta.url)),
        fileURLToPath(new URL('./cgroup-global-teardown.ts', import.meta.url)),
      ],
      retry: options.retry ?? 0,
      // PROCMUX_TEST_RESULT_FILE: where tooling/scripts/verify-static.mjs reads a run's results.
      reporters: [
        'default',
        [
          'json',
          {
            outputFile:
              process.env.PROCMUX_TEST_RESULT_FILE ?? options.resultFile ?? 'test-results/unit.json',
          },
        ],
      ],
      coverage: coverage
        ? {
            enabled: true,
            provider: 'v8',
            include: ['src/**/*.ts'],
            reporter: ['text-summary'],
            thresholds: { lines: options.coverageLines ?? 0 },
          }
        : { enabled: false },
    },
  });
}
