// No import circles anywhere in the packages' sources, type-only imports included: a circle
// of types is still two files that can only be read together. Relative imports are followed
// file to file, `@procmux/<name>` imports to the file the package's exports map names for its
// sources, so a circle between packages counts too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packagesDir = join(root, 'packages');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? tsFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every module specifier a file names: imports, re-exports, `import()` and `import('x').T` types. */
export function specifiersOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `@procmux/x[/sub]` → the source file its exports map names (`@procmux/source` condition). */
function packageEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const name of readdirSync(packagesDir)) {
    const manifestPath = join(packagesDir, name, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const sourceFile =
        typeof target === 'object' && target !== null
          ? (target as Record<string, unknown>)['@procmux/source']
          : undefined;
      if (typeof sourceFile !== 'string') continue;
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      entries.set(specifier, resolve(packagesDir, name, sourceFile));
    }
  }
  return entries;
}

/** The file a relative `./x.js` specifier names (`.js` written for a `.ts` source). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base,
    join(base, 'index.ts'),
  ];
  return candidates.find((candidate) => existsSync(candidate) && candidate.match(/\.tsx?$/));
}

/** The import graph of every package's src/, file to file. */
function importGraph(): Map<string, string[]> {
  const entries = packageEntries();
  const graph = new Map<string, string[]>();
  const files = readdirSync(packagesDir)
    .map((name) => join(packagesDir, name, 'src'))
    .filter((dir) => existsSync(dir))
    .flatMap(tsFiles);
  for (const file of files) {
    const targets = specifiersOf(file, readFileSync(file, 'utf8')).flatMap((specifier) => {
      const target = specifier.startsWith('.') ? resolveRelative(file, specifier) : entries.get(specifier);
      return target === undefined ? [] : [target];
    });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components with more than one node, or a self-import. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (;;) {
          const member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
          if (member === frame.node) break;
        }
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node))
          found.push(component.sort());
      }
    }
  }
  return found;
}

describe('import circles', () => {
  it('finds circles of any length, type-only imports included, and nothing in a tree', () => {
    const graph = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      circles(
        new Map([
          ['x', ['y']],
          ['y', []],
        ]),
      ),
    ).toEqual([]);
    expect(
      specifiersOf(
        'x.ts',
        "import type { A } from './a.js';\nexport type { B } from './b.js';\ntype C = import('./c.js').C;",
      ),
    ).toEqual(['./a.js', './b.js', './c.js']);
  });

  it('has none across the packages’ sources', () => {
    const graph = importGraph();
    // Sanity: the walk saw the tree (a broken resolver would find no edges and no circles).
    expect(graph.size).toBeGreaterThan(200);
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(edges).toBeGreaterThan(graph.size);
    const found = circles(graph).map((component) => component.map((file) => relative(root, file)));
    expect(found).toEqual([]);
  });
});
