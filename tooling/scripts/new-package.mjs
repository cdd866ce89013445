#!/usr/bin/env node
// Scaffolds packages/<name> with the layout every procmux package shares:
//   node tooling/scripts/new-package.mjs <name> "<description>" [dep ...]
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [name, description = '', ...deps] = process.argv.slice(2);
if (!name) {
  console.error('usage: new-package.mjs <name> "<description>" [@procmux/dep ...]');
  process.exit(2);
}
const root = new URL('../../', import.meta.url).pathname;
const dir = join(root, 'packages', name);
if (existsSync(dir)) {
  console.error(`packages/${name} exists`);
  process.exit(1);
}
mkdirSync(join(dir, 'src'), { recursive: true });
mkdirSync(join(dir, 'test'), { recursive: true });
const dependencies = Object.fromEntries(
  deps.map((dep) => [dep, dep.startsWith('@procmux/') ? 'workspace:^' : '*']),
);
const pkg = {
  name: `@procmux/${name}`,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  engines: { node: '>=20' },
  exports: {
    '.': { '@procmux/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
    './package.json': './package.json',
  },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  files: ['dist', 'README.md', 'LICENSE'],
  scripts: {
    build: 'tsc -p tsconfig.build.json',
    typecheck: 'tsc -p tsconfig.json --noEmit',
    test: 'vitest run',
  },
  dependencies,
  // Published manifests name only shipped files: no '@procmux/source' condition.
  publishConfig: {
    access: 'public',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
  },
};
const write = (file, text) => writeFileSync(join(dir, file), text);
write('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
write(
  'tsconfig.json',
  `${JSON.stringify({ extends: '../../tooling/tsconfig.json', include: ['src', 'test', 'vitest.config.ts'] }, null, 2)}\n`,
);
write(
  'tsconfig.build.json',
  `${JSON.stringify({ extends: '../../tooling/tsconfig.build.json', compilerOptions: { rootDir: 'src', outDir: 'dist' }, include: ['src'] }, null, 2)}\n`,
);
write(
  'vitest.config.ts',
  "import { packageTestConfig } from '../../tooling/vitest.shared.ts';\n\nexport default packageTestConfig({ coverageLines: 90 });\n",
);
write('src/index.ts', 'export {};\n');
write('README.md', `# @procmux/${name}\n\n${description}\n`);
copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
console.log(`created packages/${name}`);
