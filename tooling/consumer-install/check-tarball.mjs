// Would this unpacked tarball work for a consumer? Every path its manifest names is in it,
// no workspace-only condition or protocol leaked into it, it carries its LICENSE, its source
// maps are self-contained, and the relative imports of its JavaScript resolve inside it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const DEPENDENCY_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'];

function walk(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(path));
    else files.push(path);
  }
  return files;
}

// Every (condition path, target) leaf of an `exports` value.
function exportTargets(value, path = []) {
  if (typeof value === 'string') return [{ path, target: value }];
  if (Array.isArray(value)) return value.flatMap((item) => exportTargets(item, path));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => exportTargets(item, [...path, key]));
  }
  return [];
}

/**
 * Problems with the unpacked package in `dir` (the tarball's `package/` folder); empty when it
 * would install and load. `publicNames`: the packages this workspace publishes.
 */
export function checkUnpackedPackage(packageDir, publicNames) {
  const dir = resolve(packageDir);
  const problems = [];
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const has = (target) => {
    const path = resolve(dir, target);
    return path.startsWith(dir) && existsSync(path) && statSync(path).isFile();
  };

  for (const { path, target } of exportTargets(manifest.exports)) {
    const where = `exports ${path.join(' > ')}`;
    if (path.some((key) => key.startsWith('@procmux/'))) problems.push(`${where}: workspace-only condition`);
    if (!target.includes('*') && !has(target)) problems.push(`${where} → ${target}: not in the tarball`);
  }
  const root = manifest.exports?.['.'];
  if (root && typeof root === 'object' && !('default' in root) && !('require' in root)) {
    problems.push("exports '.' has neither 'default' nor 'require': require() fails");
  }
  for (const field of ['main', 'types', 'typings']) {
    if (typeof manifest[field] === 'string' && !has(manifest[field])) {
      problems.push(`${field} → ${manifest[field]}: not in the tarball`);
    }
  }
  const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  for (const [name, target] of Object.entries(bins)) {
    if (!has(target)) problems.push(`bin ${name} → ${target}: not in the tarball`);
    else if (!readFileSync(resolve(dir, target), 'utf8').startsWith('#!'))
      problems.push(`bin ${name}: no #! line`);
  }
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|link|file):/.test(range)) problems.push(`${field} ${name}@${range}: not installable`);
      if (name.startsWith('@procmux/') && !publicNames.has(name))
        problems.push(`${field} ${name}: not published`);
    }
  }
  if (!has('LICENSE')) problems.push('no LICENSE');
  if (!has('README.md')) problems.push('no README.md');

  for (const file of walk(dir)) {
    const name = relative(dir, file);
    if (name.endsWith('.map')) problems.push(...checkSourceMap(dir, file, name, has));
    if (name.endsWith('.js')) problems.push(...checkRelativeImports(dir, file, name, has));
  }
  return problems;
}

function checkSourceMap(dir, file, name, has) {
  const map = JSON.parse(readFileSync(file, 'utf8'));
  const sources = map.sources ?? [];
  const content = map.sourcesContent ?? [];
  const missing = sources.filter((source, index) => {
    if (typeof content[index] === 'string') return false;
    return !has(relative(dir, resolve(dirname(file), map.sourceRoot ?? '', source)));
  });
  return missing.length > 0 ? [`${name}: names ${missing.join(', ')}, neither shipped nor embedded`] : [];
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function checkRelativeImports(dir, file, name, has) {
  const problems = [];
  for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
    const target = relative(dir, resolve(dirname(file), match[1]));
    if (!has(target)) problems.push(`${name} imports ${match[1]}: not in the tarball`);
  }
  return problems;
}
