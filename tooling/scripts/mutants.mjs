// How a mutant is named across a Stryker JSON report, a package's `equivalent` list and the
// tools that read both: its file, start line and column (1-based, as the report gives them),
// mutator and replacement. Where two mutants share all five (`a || b || c` mutated to `false`
// at each `||`: every operand chain starts at the same column) the entry adds `end`, the
// mutant's end as "line:column".

/**
 * @typedef {{ file: string, line: number, column: number, mutator: string, replacement: string, end?: string, why: string }} Equivalent
 *   An entry of a stryker.config.mjs `equivalent` list; `file` is relative to the package.
 */

/** The five-field key of a report mutant, its file relative to the package (`src/x.ts`). */
export function mutantKey(file, mutant) {
  const { line, column } = mutant.location.start;
  return keyOf({ file, line, column, mutator: mutant.mutatorName, replacement: mutant.replacement ?? '' });
}

/** A report mutant's end, as an entry's `end` names it. */
export function endOf(mutant) {
  return `${mutant.location.end.line}:${mutant.location.end.column}`;
}

/** The five-field key of an `equivalent` entry (its `end` is matched apart). */
export function keyOf({ file, line, column, mutator, replacement }) {
  return `${file}:${line}:${column} ${mutator} ${JSON.stringify(replacement)}`;
}

/** Checks every entry has the five fields and a reason; throws naming the first that does not. */
export function checkEquivalents(list) {
  const fields = {
    file: 'string',
    line: 'number',
    column: 'number',
    mutator: 'string',
    replacement: 'string',
    why: 'string',
  };
  for (const [index, entry] of list.entries()) {
    for (const [field, type] of Object.entries(fields)) {
      if (
        typeof entry?.[field] !== type ||
        (type === 'string' && field !== 'replacement' && entry[field] === '')
      ) {
        throw new Error(
          `equivalent[${index}] needs ${field} (${type}): an entry names one mutant by file, line, column, mutator and replacement, with why (got ${JSON.stringify(entry)})`,
        );
      }
    }
    if (entry.end !== undefined && !/^\d+:\d+$/.test(entry.end)) {
      throw new Error(`equivalent[${index}].end must be "line:column" (got ${JSON.stringify(entry.end)})`);
    }
  }
}
