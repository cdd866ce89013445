// The teardown every spawning test file needs, in one place: free what the file created, then
// fail if anything it started is still alive.
import { afterAll } from 'vitest';
import { assertNoLeakedProcesses } from './leaks.js';

/**
 * Registers an afterAll that runs `cleanup` (dispose registries, remove temp dirs), then
 * asserts that no process this test file started outlives it. Call once at a file's top level.
 */
export function checkLeaksAfterAll(cleanup?: () => unknown): void {
  afterAll(async () => {
    await cleanup?.();
    await assertNoLeakedProcesses();
  });
}
