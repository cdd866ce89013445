// The teardown every spawning test file shares: what it created is disposed after each test,
// and once the file is done nothing it started may still be alive.
import { afterAll, afterEach } from 'vitest';
import { assertNoLeakedProcesses } from './leaks.js';

/**
 * Registers the teardown and returns `track(item)`, which hands `item` back and disposes it
 * after the current test (in the order tracked). Call once, at the top of a test file.
 *
 * @example
 * const track = disposeAfterEach<ProcessSessions>();
 * const sessions = track(createProcessSessions({ cwd }));
 */
export function disposeAfterEach<T extends { dispose(): unknown }>(): (item: T) => T {
  const held: T[] = [];
  afterEach(async () => {
    for (const item of held.splice(0)) await item.dispose();
  });
  afterAll(async () => {
    await assertNoLeakedProcesses();
  });
  return (item) => {
    held.push(item);
    return item;
  };
}
