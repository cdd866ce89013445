// The one place in procmux that chooses the platform packages (pty-posix/kill-posix or
// pty-windows-conpty/kill-windows) by the OS it runs on. Elsewhere `process.platform` is read
// only as the default of an injectable `platform` parameter (shell-wrap, the PTY loaders, the
// kill effects, sessions' input probe) or at a process entry point (the watchdog's main), so
// every Windows path can still be exercised on Linux. See docs/architecture.md#layers.
import {
  type KillPlatformModule,
  oneOf,
  ProcmuxError,
  type ProcmuxErrorCode,
  type PtyPlatformModule,
} from '@procmux/core-types';

const PLATFORMS: readonly NodeJS.Platform[] = [
  'aix',
  'android',
  'cygwin',
  'darwin',
  'freebsd',
  'haiku',
  'linux',
  'netbsd',
  'openbsd',
  'sunos',
  'win32',
];

/** An injected platform, checked (a typo must not silently mean POSIX); default: the current one. */
export function resolvePlatform(value: unknown): NodeJS.Platform {
  return oneOf<NodeJS.Platform>('platform', value, PLATFORMS) ?? currentPlatform();
}

/** The platform procmux runs on, unless a caller injects another. */
export function currentPlatform(): NodeJS.Platform {
  return process.platform;
}

/** The packages that implement a platform: a PTY adapter and a tree kill. */
export interface PlatformPackages {
  readonly pty: string;
  readonly kill: string;
}

/**
 * Which packages serve `platform`. Windows gets ConPTY and taskkill; every other platform
 * Node runs on is POSIX (process groups, /dev/ptmx).
 */
export function platformPackages(platform: NodeJS.Platform): PlatformPackages {
  return platform === 'win32'
    ? { pty: '@procmux/pty-windows-conpty', kill: '@procmux/kill-windows' }
    : { pty: '@procmux/pty-posix', kill: '@procmux/kill-posix' };
}

/** The platform's modules, each loaded on first use (never at import). */
export interface PlatformModules {
  readonly platform: NodeJS.Platform;
  /** Rejects with ERR_PROCESS_PTY_BACKEND naming the package when it cannot be loaded. */
  loadPty(): Promise<PtyPlatformModule>;
  /** Rejects with ERR_PROCESS_UNSUPPORTED naming the package when it cannot be loaded. */
  loadKill(): Promise<KillPlatformModule>;
}

/** Builds the PlatformModules for a platform; the supervisor takes one to inject fakes. */
export type PlatformLoader = (platform: NodeJS.Platform) => PlatformModules;

/** Imports a module by specifier; injectable so a missing package can be simulated. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

// The specifier is a variable on purpose: the PTY packages are optional dependencies limited
// by `os` (only the matching one installs), so neither TypeScript nor a bundler may insist
// that they exist.
const nodeImport: ModuleImporter = (specifier) => import(specifier);

/**
 * Lazily loads the platform packages through `importer` (Node's dynamic import by default).
 * A package that is missing, or that lacks the expected export, becomes a ProcmuxError that
 * names the package to install, at the moment it is first needed.
 */
export function loadPlatform(
  platform: NodeJS.Platform,
  importer: ModuleImporter = nodeImport,
): PlatformModules {
  const packages = platformPackages(platform);
  let pty: Promise<PtyPlatformModule> | undefined;
  let kill: Promise<KillPlatformModule> | undefined;
  return {
    platform,
    loadPty() {
      pty ??= loadExport<PtyPlatformModule>(
        importer,
        packages.pty,
        'createPtyAdapter',
        platform,
        'ERR_PROCESS_PTY_BACKEND',
      );
      return pty;
    },
    loadKill() {
      kill ??= loadExport<KillPlatformModule>(
        importer,
        packages.kill,
        'killProcessTree',
        platform,
        'ERR_PROCESS_UNSUPPORTED',
      );
      return kill;
    },
  };
}

async function loadExport<T>(
  importer: ModuleImporter,
  specifier: string,
  exportName: string,
  platform: NodeJS.Platform,
  code: ProcmuxErrorCode,
): Promise<T> {
  const where = `${platform}/${process.arch}`;
  let loaded: unknown;
  try {
    loaded = await importer(specifier);
  } catch (cause) {
    throw new ProcmuxError(
      code,
      `${specifier} is needed on ${where} but could not be loaded; install it next to @procmux/supervisor ` +
        '(likely causes: optional dependencies omitted, node_modules copied from another OS, install scripts blocked)',
      { cause, details: { package: specifier, platform, arch: process.arch } },
    );
  }
  const value = (loaded as Record<string, unknown> | null)?.[exportName];
  if (typeof value !== 'function') {
    throw new ProcmuxError(
      code,
      `${specifier} was loaded on ${where} but does not export ${exportName}(); install a matching version`,
      { details: { package: specifier, platform, arch: process.arch } },
    );
  }
  return loaded as T;
}
