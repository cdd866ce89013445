// Loads a procmux package from its built dist by package name, the way a user imports it.
// A package that has not landed (no dist, a stub without the export, a 'not implemented'
// throw) is reported as "not built" instead of breaking the run.

/** Thrown when a case's package cannot be used yet; the table shows "not built". */
export class NotBuiltError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotBuiltError';
  }
}

// 'does not export': the supervisor's message for a platform package that is still a stub.
const NOT_IMPLEMENTED = /not (yet )?implemented|not built|unimplemented|does not export/i;

/** True for an error that says the code under test is missing rather than wrong. */
export function isNotBuilt(error: unknown): boolean {
  if (error instanceof NotBuiltError) return true;
  return error instanceof Error && NOT_IMPLEMENTED.test(error.message);
}

/**
 * Imports `name` and checks that each of `exports` is a function (a class or a factory).
 * The result is typed by the caller's view of the API (see procmux-api.ts), because the
 * packages are written in parallel with this harness and their types may not exist yet.
 */
export async function loadPackage<T>(name: string, exports: readonly string[]): Promise<T> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(name)) as Record<string, unknown>;
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new NotBuiltError(`${name} cannot be imported (${first}); run pnpm build`);
  }
  const missing = exports.filter((key) => typeof mod[key] !== 'function');
  if (missing.length > 0) throw new NotBuiltError(`${name}: no export ${missing.join(', ')}`);
  return mod as T;
}
