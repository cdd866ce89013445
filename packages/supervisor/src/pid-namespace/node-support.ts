// The real effects of pidNamespaceSupport, and its answer kept once per process.
import { spawn } from 'node:child_process';
import { hasExecutableOnPath } from '@procmux/shell-wrap';
import { type PidNamespaceSupport, pidNamespaceSupport } from './support.js';

let cached: Promise<PidNamespaceSupport> | undefined;

/** This host's answer (one probe, ~2 ms, then reused). */
export function hostPidNamespaceSupport(): Promise<PidNamespaceSupport> {
  cached ??= pidNamespaceSupport({
    platform: process.platform,
    euid: process.geteuid?.() ?? -1,
    which: (name) => hasExecutableOnPath(name, process.env),
    run: (file, args) =>
      new Promise((resolve) => {
        const child = spawn(file, [...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', (error) => resolve({ code: null, stderr: error.message }));
        child.on('close', (code) => resolve({ code, stderr }));
      }),
  });
  return cached;
}
