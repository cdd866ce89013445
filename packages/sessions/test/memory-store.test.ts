import { createMemoryRecoveryStores } from '../src/index.js';
import { runStoreConformance } from './conformance/store-conformance.js';

runStoreConformance('memory', async () => createMemoryRecoveryStores());
