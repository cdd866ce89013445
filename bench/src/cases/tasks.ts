// What a model spends on standard tasks through `procmux mcp` (issue 33 item 6): tool calls
// and the bytes of text the replies give it to read. Counts, not times: they do not depend
// on the machine's load. Each task is done as a careful model would and checked (see tasks/).
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { fact, num } from '../format.js';
import { startTaskClient, type TaskClientOptions } from './tasks/client.js';
import {
  answerPassword,
  answerRepl,
  findFailingTest,
  killTreeAndConfirm,
  readLogWhole,
  scriptedPerson,
  startDevServer,
  type TaskWorld,
} from './tasks/tasks.js';

const KB = 1000;

interface TaskSpec {
  id: string;
  title: string;
  target: string;
  /** Calls and the largest reply allowed; undefined: reported only. */
  maxCalls?: number;
  maxReplyBytes?: number;
  options?: TaskClientOptions;
  run(world: TaskWorld, ctx: BenchContext): Promise<string>;
}

function taskCase(spec: TaskSpec): BenchCase {
  return {
    id: spec.id,
    title: spec.title,
    target: spec.target,
    async run(ctx: BenchContext): Promise<Measured> {
      const dir = mkdtempSync(join(ctx.tmpDir, `${spec.id}-`));
      const client = await startTaskClient(dir, mkdtempSync(join(ctx.tmpDir, 'state-')), spec.options);
      try {
        const how = await spec.run({ dir, client }, ctx);
        const calls = client.replies.length;
        const total = client.replies.reduce((a, b) => a + b, 0);
        const largest = Math.max(...client.replies);
        const pass =
          (spec.maxCalls === undefined || calls <= spec.maxCalls) &&
          (spec.maxReplyBytes === undefined || largest <= spec.maxReplyBytes);
        return {
          status: 'measured',
          procmux: fact(`${calls} call${calls === 1 ? '' : 's'}, ${num(total / KB)} kB`, [calls], 'calls'),
          raw: null,
          ratio: `largest reply ${num(largest / KB)} kB`,
          pass,
          notes: [`${how}; reply bytes per call: ${client.replies.map((b) => num(b / KB)).join(', ')} kB`],
        };
      } finally {
        await client.close();
      }
    },
  };
}

export const taskFailingTest = taskCase({
  id: 'task-failing-test',
  title: 'find the failing test of a 200-test run (name and message) [none: counts]',
  target: '1 call',
  maxCalls: 1,
  run: findFailingTest,
});

export const taskDevServer = taskCase({
  id: 'task-dev-server',
  title: 'start a dev server and know it is ready [none: counts]',
  target: '≤ 2 calls',
  maxCalls: 2,
  run: startDevServer,
});

export const taskRepl = taskCase({
  id: 'task-repl',
  title: 'answer a REPL (python: print(6*7) → 42) [none: counts]',
  target: 'report',
  run: answerRepl,
});

export const taskReadLog = taskCase({
  id: 'task-read-log',
  title: 'read a 100,000-line log whole (`seq 1 100000`, 589 kB) [none: counts]',
  target: '≤ 25 calls, ≤ 30 kB each',
  maxCalls: 25,
  maxReplyBytes: 30 * KB,
  run: (world) => readLogWhole(world, 100_000),
});

export const taskKillTree = taskCase({
  id: 'task-kill-tree',
  title: 'kill a tree of 5 processes and confirm it is gone [none: counts]',
  target: 'report',
  run: killTreeAndConfirm,
});

export const taskPassword = taskCase({
  id: 'task-password',
  title: 'answer a password prompt by a person (URL elicitation, scripted person) [none: counts]',
  target: 'report',
  options: { person: scriptedPerson },
  run: answerPassword,
});

export const TASK_CASES = [taskFailingTest, taskDevServer, taskRepl, taskReadLog, taskKillTree, taskPassword];
