// The bench's sshd: the test helper of tooling/test-utils (TypeScript source, run by vitest
// elsewhere), transpiled with the workspace's typescript into the run's temp dir and imported.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchSshd {
  host: string;
  port: number;
  username: string;
  identityFile: string;
  knownHostsFile: string;
  pid: number;
  sshArgs(): string[];
  stop(): Promise<void>;
}

interface SshdModule {
  sshdMissingReason(): string | undefined;
  startTestSshd(): Promise<BenchSshd>;
}

const SOURCES = ['sshd.ts', 'process-table.ts'];

/** Loads the helper; `reason` says why sshd cannot run here (the case then reports not built). */
export async function loadSshdHelper(tmpDir: string): Promise<SshdModule> {
  const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
  const from = fileURLToPath(new URL('../../tooling/test-utils/src/', import.meta.url));
  const to = join(tmpDir, 'sshd-helper');
  mkdirSync(to, { recursive: true });
  for (const name of SOURCES) {
    const out = ts.transpileModule(readFileSync(join(from, name), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(to, name.replace(/\.ts$/, '.js')), out.outputText);
  }
  writeFileSync(join(to, 'package.json'), '{"type":"module"}');
  return (await import(pathToFileURL(join(to, 'sshd.js')).href)) as SshdModule;
}
