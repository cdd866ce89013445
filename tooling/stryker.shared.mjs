// Shared StrykerJS settings for `pnpm mutate --filter <pkg>`: every pure package's
// stryker.config.mjs calls mutationConfig(). Stryker runs from the repository root so the
// sandbox keeps the monorepo layout (package vitest configs import ../../tooling/...).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Which part of a package's run `pnpm mutate --part <name>` asked for (undefined: the whole run). */
export const MUTATION_PART_ENV = 'PROCMUX_MUTATION_PART';

/**
 * @typedef {{ mutate: string[], tests: string[] }} MutationPart
 *   One part of a package's run, scored on its own: its source globs and the tests that cover them.
 */

/**
 * The files and tests of one run: the part PROCMUX_MUTATION_PART names, or every part together.
 * @param {string} pkg
 * @param {Record<string, MutationPart>} parts
 */
function selectPart(pkg, parts) {
  const name = process.env[MUTATION_PART_ENV] || undefined;
  if (name === undefined) {
    const all = Object.values(parts);
    return { name, mutate: all.flatMap((p) => p.mutate), tests: [...new Set(all.flatMap((p) => p.tests))] };
  }
  const part = Object.hasOwn(parts, name) ? parts[name] : undefined;
  if (part === undefined) {
    const known = Object.keys(parts);
    throw new Error(
      `${pkg} has no mutation part "${name}" (${known.length === 0 ? 'it is run whole' : `its parts: ${known.join(', ')}`})`,
    );
  }
  return { name, ...part };
}

/**
 * @param {string} pkg directory name under packages/
 * @param {{ breakAt: number, mutate?: string[], tests?: string[], exclude?: string[], parts?: Record<string, MutationPart> }} options
 *   breakAt: the floor (thresholds.break); mutate: source globs (default all of src/);
 *   tests: test globs when only part of the package's suite covers `mutate`;
 *   exclude: source globs never mutated (each one's reason lives in the package README);
 *   parts: instead of mutate and tests, named parts that `pnpm mutate --part <name>` runs and
 *   scores on their own (each with its own report and incremental file); all of them by default.
 */
export function mutationConfig(pkg, options) {
  const dir = `packages/${pkg}`;
  const part = selectPart(pkg, options.parts ?? {});
  const picked = options.parts ? part : { mutate: options.mutate, tests: options.tests };
  const suffix = part.name === undefined ? '' : `-${part.name}`;
  const mutate = (picked.mutate ?? ['src/**/*.ts']).map((glob) => `${dir}/${glob}`);
  for (const glob of options.exclude ?? []) mutate.push(`!${dir}/${glob}`);
  mutate.push(`!${dir}/src/index.ts`);
  // Read by tooling/vitest.shared.ts and tooling/test-utils in the test runner processes.
  process.env.PROCMUX_COVERAGE = '0';
  process.env.PROCMUX_PROPERTY_SCALE ??= '0.1';
  if (picked.tests) process.env.PROCMUX_TEST_INCLUDE = picked.tests.join(',');
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
    incrementalFile: `${dir}/reports/stryker-incremental${suffix}.json`,
    reporters: ['clear-text', 'progress', 'json'],
    jsonReporter: { fileName: `${dir}/reports/mutation/mutation${suffix}.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    thresholds: { high: 90, low: 80, break: options.breakAt },
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
  };
}
