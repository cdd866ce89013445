import { createRequire } from 'node:module';

/** This package's version, read from its package.json (one level above src/ and dist/). */
export function packageVersion(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}
