// node-pty is loaded on first use, never at import, and a failure says what to do about it.
import { ProcmuxError } from '@procmux/core-types';
import { type ConptyModule, isConptyModule } from './node-pty.js';

export interface LoadNodePtyOptions {
  /** Effect: imports a package (a dynamic `import()` by default). Injected by tests. */
  importModule?: (name: 'node-pty') => Promise<unknown>;
  platform?: NodeJS.Platform;
  arch?: string;
}

let cached: Promise<ConptyModule> | undefined;

/**
 * Loads node-pty for ConPTY. The successful load is cached. Rejects with
 * ERR_PROCESS_PTY_BACKEND naming the package, the platform and architecture, why it failed,
 * and the likely causes.
 */
export function loadNodePty(options: LoadNodePtyOptions = {}): Promise<ConptyModule> {
  if (options.importModule !== undefined) return importNodePty(options);
  if (cached === undefined) {
    cached = importNodePty(options);
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}

async function importNodePty(options: LoadNodePtyOptions): Promise<ConptyModule> {
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  let reason: string;
  let cause: unknown;
  try {
    const imported = await (options.importModule ?? ((name) => import(name)))('node-pty');
    // A CommonJS module arrives as the namespace's default export.
    const value = (imported as { default?: unknown } | null)?.default ?? imported;
    if (isConptyModule(value)) return value;
    reason = 'node-pty loaded but has no spawn function';
  } catch (error) {
    cause = error;
    reason = firstLine(error);
  }
  throw new ProcmuxError(
    'ERR_PROCESS_PTY_BACKEND',
    `no PTY backend could be loaded for ${platform}-${arch}. Tried: node-pty (${reason}). Likely causes: ` +
      'optional dependencies were omitted at install (--omit=optional, --no-optional), ' +
      'node_modules was copied from another operating system or architecture, or install ' +
      'scripts were blocked (--ignore-scripts). Reinstall on this machine with optional ' +
      'dependencies and install scripts allowed.',
    { cause, details: { platform, arch, tried: [{ name: 'node-pty', reason }] } },
  );
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = (text.split('\n').find((part) => part.trim() !== '') ?? 'unknown error').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
