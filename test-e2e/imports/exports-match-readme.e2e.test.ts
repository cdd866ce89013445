// Every package's entry point exports exactly what its README documents: each name exported
// from src/index.ts (values and types, `export *` followed) has a bullet "- `Name` — ..." in
// the README's "## Exports" section, and each bullet there names an export. A new export
// without documentation, or documentation of something no longer exported, fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packages = readdirSync(join(root, 'packages'))
  .filter((dir) => existsSync(join(root, 'packages', dir, 'src/index.ts')))
  .sort();
const entries = packages.map((dir) => join(root, 'packages', dir, 'src/index.ts'));

// One program over every entry point; sibling packages resolve to their sources through the
// '@procmux/source' condition, as typecheck does.
const program = ts.createProgram(entries, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['@procmux/source'],
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
});
const checker = program.getTypeChecker();

/** The names a package's src/index.ts exports, values and types alike. */
function exportedNames(entry: string): string[] {
  const source = program.getSourceFile(entry);
  if (source === undefined) throw new Error(`${entry} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) return [];
  return checker
    .getExportsOfModule(module)
    .map((symbol) => symbol.name)
    .sort();
}

/** The names a README's "## Exports" section lists, one bullet "- `Name` ..." each. */
function documentedNames(readme: string): string[] | undefined {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^## Exports\s*$/.test(line));
  if (start === -1) return undefined;
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^## /.test(line)) break;
    const match = /^- `([A-Za-z_$][\w$]*)[`(<]/.exec(line);
    if (match) names.push(match[1]!);
  }
  return names.sort();
}

describe.each(packages.map((dir, index) => [dir, entries[index]!]))('@procmux/%s', (dir, entry) => {
  it('exports exactly what the README documents under ## Exports', () => {
    const readme = readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8');
    const documented = documentedNames(readme);
    expect(documented, `packages/${dir}/README.md has no "## Exports" section`).toBeDefined();
    const exported = exportedNames(entry);
    const undocumented = exported.filter((name) => !documented!.includes(name));
    const notExported = documented!.filter((name) => !exported.includes(name));
    expect({ undocumented, notExported }, JSON.stringify({ undocumented, notExported })).toEqual({
      undocumented: [],
      notExported: [],
    });
    expect(new Set(documented).size, 'a name is listed twice').toBe(documented!.length);
  });
});
