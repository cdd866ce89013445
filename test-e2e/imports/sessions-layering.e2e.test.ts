// Inside @procmux/sessions, durable/ is a layer below the session machinery: it imports only
// from itself, from lower packages and from the type-only contract files listed here; what it
// needs of a session or of the registry comes in as parameters (registry.ts wires them). And a
// session never signals a process itself: signals and hang-ups go through the run's adapter.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../packages/sessions/src', import.meta.url));
const durable = join(src, 'durable');

/** Files above durable/ that durable/ may import from, and only with `import type`. */
const CONTRACT_FILES = ['types.ts'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? tsFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

interface ImportSite {
  from: string;
  specifier: string;
  typeOnly: boolean;
}

/** Every import, re-export and dynamic import of a file, and whether it is type-only. */
function importsOf(file: string): ImportSite[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const sites: ImportSite[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      sites.push({ from: file, specifier: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      sites.push({ from: file, specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (clause === undefined) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

describe('@procmux/sessions layering', () => {
  it('durable/ imports nothing above it but type-only contract files', () => {
    const files = tsFiles(durable);
    expect(files.length).toBeGreaterThan(0);
    const upward = files
      .flatMap(importsOf)
      .filter((site) => site.specifier.startsWith('.'))
      .map((site) => ({ ...site, target: resolve(join(site.from, '..'), site.specifier) }))
      .filter((site) => !site.target.startsWith(`${durable}/`))
      .filter(
        (site) =>
          !(site.typeOnly && CONTRACT_FILES.includes(relative(src, site.target).replace(/\.js$/, '.ts'))),
      )
      .map(
        (site) => `${relative(src, site.from)} imports ${site.specifier}${site.typeOnly ? ' (type)' : ''}`,
      );
    expect(upward).toEqual([]);
  });

  it('the contract files durable/ may import hold types only', () => {
    for (const name of CONTRACT_FILES) {
      const source = ts.createSourceFile(name, readFileSync(join(src, name), 'utf8'), ts.ScriptTarget.ES2022);
      const runtime = source.statements.filter(
        (statement) =>
          !ts.isInterfaceDeclaration(statement) &&
          !ts.isTypeAliasDeclaration(statement) &&
          !(ts.isImportDeclaration(statement) && isTypeOnly(statement)) &&
          !(ts.isExportDeclaration(statement) && statement.isTypeOnly),
      );
      expect(runtime.map((statement) => statement.getText(source).slice(0, 60))).toEqual([]);
    }
  });

  it('no file of sessions/src signals a process itself (process.kill): the run does', () => {
    const signalling = tsFiles(src)
      .filter((file) => /\bprocess\.kill\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file));
    expect(signalling).toEqual([]);
  });
});
