// Inside @procmux/sessions, the folders are layers by job: host/ (createProcessSessions, which
// composes the rest) over session/ (the live session) over backends/ and input-wait/ (side by
// side, neither importing the other) over durable/, which imports only from itself, from lower
// packages and from the type-only contract files listed here; what it needs of a session or of
// the registry comes in as parameters (host/registry.ts wires them). And a session never
// signals a process itself: signals and hang-ups go through the run's adapter. Below sessions,
// @procmux/registry and @procmux/transcript import no package above them.
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

  it('each folder imports only from itself and the layers below it; top-level contract files type-only', () => {
    const RANK: Record<string, number> = { host: 4, session: 3, backends: 2, 'input-wait': 2, durable: 1 };
    const CONTRACTS = ['types.ts', 'process-session.ts'];
    const folderOf = (file: string): string => relative(src, file).split('/')[0]!;
    const files = Object.keys(RANK).flatMap((folder) => tsFiles(join(src, folder)));
    // Every file is in a layer folder, but the entry point and the contract files.
    expect(
      tsFiles(src)
        .filter((file) => !files.includes(file))
        .map((file) => relative(src, file))
        .sort(),
    ).toEqual(['index.ts', ...CONTRACTS].sort());
    const wrong = files
      .flatMap(importsOf)
      .filter((site) => site.specifier.startsWith('.'))
      .map((site) => ({
        ...site,
        target: resolve(join(site.from, '..'), site.specifier).replace(/\.js$/, '.ts'),
      }))
      .filter((site) => {
        const from = folderOf(site.from);
        const to = folderOf(site.target);
        if (from === to) return false;
        if (CONTRACTS.includes(to)) return !site.typeOnly;
        return !(to in RANK) || (RANK[to] as number) >= (RANK[from] as number);
      })
      .map(
        (site) => `${relative(src, site.from)} imports ${site.specifier}${site.typeOnly ? ' (type)' : ''}`,
      );
    expect(wrong).toEqual([]);
  });

  it('registry and transcript, below sessions, import no package above them', () => {
    const ALLOWED: Record<string, string[]> = {
      registry: ['@procmux/core-types'],
      transcript: ['@procmux/core-types', '@procmux/ansi', '@procmux/screen'],
    };
    for (const [name, allowed] of Object.entries(ALLOWED)) {
      const dir = fileURLToPath(new URL(`../../packages/${name}/src`, import.meta.url));
      const files = tsFiles(dir);
      expect(files.length).toBeGreaterThan(0);
      const upward = files
        .flatMap(importsOf)
        .filter((site) => site.specifier.startsWith('@procmux/') && !allowed.includes(site.specifier))
        .map((site) => `${name}/${relative(dir, site.from)} imports ${site.specifier}`);
      expect(upward).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(dir, '../package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      expect(
        Object.keys(manifest.dependencies ?? {})
          .filter((dep) => dep.startsWith('@procmux/'))
          .sort(),
      ).toEqual([...allowed].sort());
    }
  });

  it('no file of sessions/src signals a process itself (process.kill): the run does', () => {
    const signalling = tsFiles(src)
      .filter((file) => /\bprocess\.kill\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file));
    expect(signalling).toEqual([]);
  });
});
