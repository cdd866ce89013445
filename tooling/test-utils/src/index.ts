export { rejectsWith, throwsWith } from './errors.js';
export { announcedPids, type FixtureName, fixture, fixturePath } from './fixtures.js';
export { assertNoLeakedProcesses, leakedProcesses, trackPid } from './leaks.js';
export { descendantsOf, isAlive, type ProcessInfo, processTable } from './process-table.js';
export { propertyRuns } from './property-runs.js';
export { SSHD_PATH, sshdMissingReason, sshdSkipReason, startTestSshd, type TestSshd } from './sshd.js';
export { waitFor } from './wait-for.js';
