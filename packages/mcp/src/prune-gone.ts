// `procmux sessions prune --gone`: the state dirs whose workspace was deleted (a temporary
// checkout, a removed clone) go, with any persisted session still running in them.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { prunePersisted } from './persistence.js';
import { markedWorkspace, stateRoot } from './state-dir.js';

/** Removes every state dir under the state root whose workspace is gone; one line per dir. */
export async function pruneGone(env: NodeJS.ProcessEnv): Promise<string[]> {
  const root = stateRoot(env);
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [`no state in ${root}: nothing to remove`];
  }
  const lines: string[] = [];
  let kept = 0;
  let unmarked = 0;
  for (const name of names) {
    const dir = join(root, name);
    const workspace = markedWorkspace(dir);
    if (workspace === undefined) {
      unmarked += 1;
      continue;
    }
    if (existsSync(workspace)) {
      kept += 1;
      continue;
    }
    const ended = await prunePersisted(dir, workspace);
    // A live server on a deleted workspace keeps its dir until it stops.
    if (/^a procmux mcp server/.test(ended)) {
      lines.push(`kept ${dir}: ${ended}`);
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
    lines.push(`removed ${dir} (workspace ${workspace} no longer exists; ${ended.replace(/ in .*$/, '')})`);
  }
  const removed = lines.filter((line) => line.startsWith('removed')).length;
  lines.push(
    `removed ${removed} state dir(s) in ${root}; kept ${kept} whose workspace exists` +
      (unmarked > 0 ? `; left ${unmarked} without a workspace mark (made before procmux marked them)` : ''),
  );
  return lines;
}
