// Shared StrykerJS settings for `pnpm mutate --filter <pkg>`: every pure package's
// stryker.config.mjs calls mutationConfig(). Stryker runs from the repository root so the
// sandbox keeps the monorepo layout (package vitest configs import ../../tooling/...).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * @param {string} pkg directory name under packages/
 * @param {{ breakAt: number, mutate?: string[], tests?: string[], exclude?: string[] }} options
 *   breakAt: the floor (thresholds.break); mutate: source globs (default all of src/);
 *   tests: test globs when only part of the package's suite covers `mutate`;
 *   exclude: source globs never mutated (each one's reason lives in the package README).
 */
export function mutationConfig(pkg, options) {
  const dir = `packages/${pkg}`;
  const mutate = (options.mutate ?? ['src/**/*.ts']).map((glob) => `${dir}/${glob}`);
  for (const glob of options.exclude ?? []) mutate.push(`!${dir}/${glob}`);
  mutate.push(`!${dir}/src/index.ts`);
  // Read by tooling/vitest.shared.ts and tooling/test-utils in the test runner processes.
  process.env.PROCMUX_COVERAGE = '0';
  process.env.PROCMUX_PROPERTY_SCALE ??= '0.1';
  if (options.tests) process.env.PROCMUX_TEST_INCLUDE = options.tests.join(',');
  return {
    $schema: '../../node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    packageManager: 'pnpm',
    plugins: [require.resolve('@stryker-mutator/vitest-runner')],
    testRunner: 'vitest',
    vitest: { configFile: `${dir}/vitest.config.ts`, dir, related: false },
    coverageAnalysis: 'perTest',
    mutate,
    ignorePatterns: [
      'bench',
      'test-e2e',
      '**/dist',
      '**/.turbo',
      '**/coverage',
      '**/test-results',
      '**/reports',
      'tooling/.pnpm',
      '.procmux',
    ],
    // Two cores are shared by everyone working on this machine.
    concurrency: 1,
    incremental: true,
    incrementalFile: `${dir}/reports/stryker-incremental.json`,
    reporters: ['clear-text', 'progress', 'json'],
    jsonReporter: { fileName: `${dir}/reports/mutation/mutation.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    thresholds: { high: 90, low: 80, break: options.breakAt },
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
  };
}
