// Runs one case and turns whatever happens into an Outcome: a missing package is
// "not built", a throw is an "error" row, and neither stops the other cases.
import type { BenchCase, BenchContext, Outcome } from './case.js';
import { isNotBuilt } from './load.js';
import { sweep } from './processes.js';

const strays: string[] = [];
let listening = false;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A rejection nobody awaited or a throw from an event listener inside a package under test
// would otherwise end the whole run; it is charged to the case that was running instead.
function catchStrays(): void {
  if (listening) return;
  listening = true;
  process.on('unhandledRejection', (reason) => strays.push(`unhandled rejection: ${describeError(reason)}`));
  process.on('uncaughtException', (error) => strays.push(`uncaught exception: ${describeError(error)}`));
}

export async function runCase(benchCase: BenchCase, ctx: BenchContext): Promise<Outcome> {
  catchStrays();
  strays.length = 0;
  let outcome: Outcome;
  try {
    outcome = await benchCase.run(ctx);
  } catch (error) {
    const message = describeError(error);
    if (isNotBuilt(error)) outcome = { status: 'not built', reason: message };
    else {
      ctx.progress(`${benchCase.id} failed: ${error instanceof Error ? (error.stack ?? message) : message}`);
      outcome = { status: 'error', message };
    }
  }
  const notes = [...strays];
  // Nothing a case started may outlive it; a leftover is killed and shows in the table.
  const leftovers = sweep();
  if (leftovers > 0) notes.push(`${leftovers} process(es) outlived the case and were killed by the harness`);
  if (notes.length > 0) {
    if (outcome.status === 'measured') outcome.notes.push(...notes);
    else if (outcome.status === 'error') outcome.message += `; ${notes.join('; ')}`;
    for (const note of notes) ctx.progress(`${benchCase.id}: ${note}`);
  }
  return outcome;
}
