export { assertNoLeakedProcesses, leakedProcesses, trackPid } from './leaks.js';
export { descendantsOf, isAlive, type ProcessInfo, processTable } from './process-table.js';
export { waitFor } from './wait-for.js';
export { propertyRuns } from './property-runs.js';
export { rejectsWith, throwsWith } from './errors.js';
