// Property tests are sized down under mutation testing (Stryker reruns the suite once per
// mutant), never skipped: PROCMUX_PROPERTY_SCALE=0.1 runs a tenth of the cases, at least 20.
const MIN_RUNS = 20;

/** The number of fast-check runs for a property whose full size is `full`. */
export function propertyRuns(full: number): number {
  const raw = process.env.PROCMUX_PROPERTY_SCALE;
  if (raw === undefined || raw === '') return full;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1) {
    throw new Error(`PROCMUX_PROPERTY_SCALE must be a number in (0, 1] (got ${JSON.stringify(raw)})`);
  }
  return Math.max(Math.min(full, MIN_RUNS), Math.round(full * scale));
}
