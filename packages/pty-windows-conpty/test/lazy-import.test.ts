// Importing the package must load no native module and start no process.
import { createRequire } from 'node:module';
import type { PtyPlatformModule } from '@procmux/core-types';
import { descendantsOf } from '@procmux/test-utils';
import { expect, it } from 'vitest';

it('imports without loading node-pty or spawning anything', async () => {
  // Typed as the surface the supervisor loads: this file does not compile if it drifts.
  const index: PtyPlatformModule = await import('../src/index.js');
  expect(typeof index.createPtyAdapter).toBe('function');
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  expect(loaded.filter((path) => path.includes('node-pty'))).toEqual([]);
  expect(descendantsOf(process.pid)).toEqual([]);
});
