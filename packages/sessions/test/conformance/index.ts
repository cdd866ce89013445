// The test-only entry `@procmux/sessions/conformance`: the suites every durable store package
// runs against its own stores. Not published (publishConfig.exports leaves it out).
export { type ReplicaCrashOptions, runReplicaCrashSuite } from './replica-crash.js';
export { recordJson, runStoreConformance, type StoresUnderTest } from './store-conformance.js';
