// The workflow, the per-OS test filter and the README say the same thing about where tests run:
// each leg's --filter list in ci.yml is tooling/platform-tests.mjs's CI_LEGS, and every file the
// filter names exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CI_LEGS, legRuns, PLATFORM_RULES } from '../../tooling/platform-tests.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const workflow = readFileSync(join(root, '.github/workflows/ci.yml'), 'utf8');
const packages = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'vitest.config.ts')),
);

/** The `run:` text of the step named `name`. */
function step(name: string): string {
  const start = workflow.indexOf(`- name: ${name}`);
  if (start < 0) throw new Error(`ci.yml has no step named "${name}"`);
  const next = workflow.indexOf('\n      - ', start + 1);
  return workflow.slice(start, next < 0 ? undefined : next);
}

const filters = (text: string, negated: boolean) =>
  [...text.matchAll(negated ? /--filter='!@procmux\/([\w-]+)'/g : /--filter=@procmux\/([\w-]+)/g)]
    .map((m) => m[1]!)
    .sort();

describe('the CI legs', () => {
  it('Windows runs the unit tests of exactly the packages CI_LEGS names', () => {
    expect(filters(step('unit tests (Windows)'), false)).toEqual([...CI_LEGS.win32.unitOnly!].sort());
  });

  it('macOS leaves out exactly the packages CI_LEGS leaves out', () => {
    expect(filters(step('unit tests (macOS, no PostgreSQL server)'), true)).toEqual(
      [...CI_LEGS.darwin.unitExcept!].sort(),
    );
  });

  it('Linux runs every package, and e2e runs on every leg', () => {
    expect(step('unit tests (Linux)')).not.toContain('--filter');
    expect(step('e2e tests')).not.toMatch(/if:/);
    for (const name of packages) expect(legRuns(`packages/${name}`, 'linux')).toBe(true);
    for (const os of ['linux', 'darwin', 'win32']) expect(legRuns('test-e2e', os)).toBe(true);
  });

  it('every file the per-OS filter names exists', () => {
    const missing = Object.entries(PLATFORM_RULES).flatMap(([dir, rules]) =>
      rules.flatMap((rule) => rule.files.map((file) => `${dir}/${file}`)),
    );
    expect(missing.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});
