// Lazy, injectable loading of the native PTY module: node-pty first, then the homebridge
// prebuilt. Nothing is imported until the first adapter is created.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { invalidOption, ProcmuxError } from '@procmux/core-types';
import { isPtyNativeModule, type PtyBackend, type PtyBackendName } from './native.js';
import { findSpawnHelper } from './spawn-helper.js';

/** Which backend to use: the first that loads ('auto'), or exactly one. */
export type PtyBackendPreference = 'auto' | 'node-pty' | 'homebridge';

/** Environment variable that forces a backend preference (tests use it to force homebridge). */
export const PTY_BACKEND_ENV = 'PROCMUX_PTY_BACKEND';

const PREFERENCES: readonly PtyBackendPreference[] = ['auto', 'node-pty', 'homebridge'];
const HOMEBRIDGE: PtyBackendName = '@homebridge/node-pty-prebuilt-multiarch';

export interface LoadPtyBackendOptions {
  /** Default: the PROCMUX_PTY_BACKEND variable of `env`, else 'auto'. */
  prefer?: PtyBackendPreference;
  /** Where PROCMUX_PTY_BACKEND is read; `process.env` when omitted. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Effect: imports a package (a dynamic `import()` by default). Injected by tests. */
  importModule?: (name: PtyBackendName) => Promise<unknown>;
  /** Effect: the directory a package is installed in, for its spawn-helper; undefined if unknown. */
  locatePackage?: (name: PtyBackendName) => string | undefined;
  platform?: NodeJS.Platform;
  arch?: string;
}

/** One backend that did not load, and why. */
export interface PtyBackendFailure {
  name: PtyBackendName;
  reason: string;
}

const loaded = new Map<PtyBackendName, Promise<PtyBackend>>();

/**
 * Loads the native PTY module: node-pty, else @homebridge/node-pty-prebuilt-multiarch when
 * node-pty's native module cannot load. `prefer` (or PROCMUX_PTY_BACKEND) restricts it to one.
 * Successful loads are cached. Rejects with ERR_PROCESS_PTY_BACKEND naming every package
 * tried, the platform and architecture, and why each failed.
 *
 * @example
 * const backend = await loadPtyBackend({ prefer: 'homebridge' });
 * backend.name; // '@homebridge/node-pty-prebuilt-multiarch'
 */
export async function loadPtyBackend(options: LoadPtyBackendOptions = {}): Promise<PtyBackend> {
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  const prefer = resolvePreference(options.prefer, options.env ?? process.env);
  const failures: PtyBackendFailure[] = [];
  const errors: unknown[] = [];
  for (const name of candidates(prefer)) {
    try {
      return await loadOne(name, options, platform, arch);
    } catch (error) {
      failures.push({ name, reason: firstLine(error) });
      errors.push(error);
    }
  }
  throw backendError(failures, errors, platform, arch);
}

/** The preference from the option, else the environment, else 'auto'; anything else is an error. */
export function resolvePreference(
  prefer: unknown,
  env: Readonly<Record<string, string | undefined>>,
): PtyBackendPreference {
  if (prefer !== undefined) return checkPreference(prefer, 'backend');
  const fromEnv = env[PTY_BACKEND_ENV];
  if (fromEnv === undefined || fromEnv === '') return 'auto';
  return checkPreference(fromEnv, PTY_BACKEND_ENV);
}

function checkPreference(value: unknown, option: string): PtyBackendPreference {
  if (PREFERENCES.includes(value as PtyBackendPreference)) return value as PtyBackendPreference;
  throw invalidOption(option, `one of ${PREFERENCES.join(', ')}`, { value, values: PREFERENCES });
}

function candidates(prefer: PtyBackendPreference): PtyBackendName[] {
  if (prefer === 'node-pty') return ['node-pty'];
  if (prefer === 'homebridge') return [HOMEBRIDGE];
  return ['node-pty', HOMEBRIDGE];
}

function loadOne(
  name: PtyBackendName,
  options: LoadPtyBackendOptions,
  platform: NodeJS.Platform,
  arch: string,
): Promise<PtyBackend> {
  // Only the real importer is cached: an injected one stands for a different machine.
  if (options.importModule !== undefined) return importBackend(name, options, platform, arch);
  let pending = loaded.get(name);
  if (pending === undefined) {
    pending = importBackend(name, options, platform, arch);
    loaded.set(name, pending);
    pending.catch(() => loaded.delete(name));
  }
  return pending;
}

async function importBackend(
  name: PtyBackendName,
  options: LoadPtyBackendOptions,
  platform: NodeJS.Platform,
  arch: string,
): Promise<PtyBackend> {
  const imported = await (options.importModule ?? defaultImport)(name);
  // A CommonJS module arrives as the namespace's default export.
  const moduleValue = (imported as { default?: unknown } | null)?.default ?? imported;
  const native = (moduleValue as { native?: unknown } | null)?.native;
  if (!isPtyNativeModule(native)) {
    throw new Error(`${name} loaded but exposes no native Unix PTY module (native.fork/native.resize)`);
  }
  const packageDir = (options.locatePackage ?? defaultLocate)(name);
  return { name, native, helperPath: findSpawnHelper(packageDir, platform, arch) };
}

function defaultImport(name: PtyBackendName): Promise<unknown> {
  return import(name);
}

function defaultLocate(name: PtyBackendName): string | undefined {
  try {
    // <package>/lib/index.js → <package>
    return dirname(dirname(createRequire(import.meta.url).resolve(name)));
  } catch {
    return undefined;
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n').find((part) => part.trim() !== '') ?? 'unknown error';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line.trim();
}

function backendError(
  failures: PtyBackendFailure[],
  errors: unknown[],
  platform: NodeJS.Platform,
  arch: string,
): ProcmuxError {
  const tried = failures.map((failure) => `${failure.name} (${failure.reason})`).join('; ');
  return new ProcmuxError(
    'ERR_PROCESS_PTY_BACKEND',
    `no PTY backend could be loaded for ${platform}-${arch}. Tried: ${tried}. Likely causes: ` +
      'optional dependencies were omitted at install (--omit=optional, --no-optional), ' +
      'node_modules was copied from another operating system or architecture, or install ' +
      'scripts were blocked (--ignore-scripts) so the native module was never built. ' +
      'Reinstall on this machine with optional dependencies and install scripts allowed.',
    {
      cause: new AggregateError(errors, 'PTY backends failed to load'),
      details: { platform, arch, tried: failures },
    },
  );
}
