// What a new user does after reading a README, one clean directory each.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const node = process.execPath;
const ptyPackage = process.platform === 'win32' ? '@procmux/pty-windows-conpty' : '@procmux/pty-posix';
const otherPtyPackage = process.platform === 'win32' ? '@procmux/pty-posix' : '@procmux/pty-windows-conpty';

// Only the PTY package of this OS may install, and with optional dependencies on it must.
function platformPackages(withPty) {
  return (installed, dir) => {
    const problems = [];
    if (installed.includes(otherPtyPackage))
      problems.push(`${otherPtyPackage} was installed on ${process.platform}`);
    if (withPty && !installed.includes(ptyPackage)) problems.push(`${ptyPackage} was not installed`);
    if (!withPty && installed.includes(ptyPackage))
      problems.push(`${ptyPackage} was installed despite --omit=optional`);
    if (!withPty && existsSync(join(dir, 'node_modules/node-pty')))
      problems.push('node-pty was installed despite --omit=optional');
    for (const kill of ['@procmux/kill-posix', '@procmux/kill-windows']) {
      if (!installed.includes(kill)) problems.push(`${kill} (a plain dependency) was not installed`);
    }
    return problems;
  };
}

export const SCENARIOS = [
  {
    name: 'mcp',
    install: ['install', '@procmux/mcp'],
    expectInstalled: platformPackages(true),
    checks: [
      { cmd: 'npx', args: ['procmux', 'demo'], expect: [/Demo finished/], timeoutMs: 180_000 },
      { cmd: node, args: ['mcp-exec.mjs'], expect: [/mcp exec: ok/] },
    ],
  },
  {
    name: 'sessions',
    install: ['install', '@procmux/sessions'],
    expectInstalled: platformPackages(true),
    checks: [
      { cmd: node, args: ['sessions.mjs', 'pty'], expect: [/pipe session: ok/, /pty session: ok/] },
      {
        cmd: node,
        args: ['require.cjs', '@procmux/sessions', '@procmux/supervisor', '@procmux/core-types'],
        expect: [/require\('@procmux\/sessions'\)/],
      },
    ],
  },
  {
    // The README's MCP host line: no project, no install step, npx fetches into its own cache
    // (a fresh one, so an earlier run's copy of the same version cannot stand in).
    name: 'npx',
    // Opt-in (--with-npx): a second full download and node-pty build, about two minutes more.
    optIn: '--with-npx',
    install: null,
    freshCache: true,
    checks: [
      { cmd: 'npx', args: ['-y', '@procmux/mcp', 'demo'], expect: [/Demo finished/], timeoutMs: 300_000 },
    ],
  },
  {
    name: 'sessions-no-optional',
    install: ['install', '--omit=optional', '@procmux/sessions'],
    expectInstalled: platformPackages(false),
    checks: [{ cmd: node, args: ['sessions.mjs', 'no-pty'], expect: [/pipe session: ok/, /ran on pipes/] }],
  },
];
