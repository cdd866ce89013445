import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseForwarder, type ForwarderEffects } from '../src/forwarder-choice.js';
import { domainAllowed, parseDomain, resolveSandboxPolicy } from '../src/policy.js';
import { seccompProgram, TIOCLINUX, TIOCSTI } from '../src/seccomp.js';
import { checkSandboxSupport, type SupportEffects } from '../src/support.js';
import { hostRealPath, type ScanContext, scanLine, violationLine } from '../src/violations.js';

const root = realpathSync(mkdtempSync(join(testTmpdir(), 'sbx-unit-')));
const ws = join(root, 'ws');
const home = join(root, 'home');
mkdirSync(ws);
mkdirSync(join(home, '.ssh'), { recursive: true });
writeFileSync(join(home, '.netrc'), 'machine x');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const policy = resolveSandboxPolicy(
  { allowDomains: ['localhost:8080', '*.example.com'] },
  { workspace: ws, home },
);

describe('resolveSandboxPolicy', () => {
  it('hides the secrets that exist and only those, and keeps the workspace writable', () => {
    expect(policy.write).toEqual([ws]);
    expect(policy.denyRead).toEqual([join(home, '.ssh'), join(home, '.netrc')]);
    expect(policy).toMatchObject({ tempDir: 'private', network: 'allow-list-proxy', pidNamespace: true });
  });

  it('refuses a relative or missing write path and an unknown key, never dropping them', () => {
    expect(() => resolveSandboxPolicy({ write: ['rel'] }, { workspace: ws, home })).toThrow(
      'sandbox.write must be an array of absolute paths',
    );
    expect(() => resolveSandboxPolicy({ write: [join(root, 'nope')] }, { workspace: ws, home })).toThrow(
      'sandbox.write must be existing absolute paths',
    );
    expect(() => resolveSandboxPolicy({ net: true } as never, { workspace: ws, home })).toThrow(/net/);
  });

  it('parses NAME[:PORT] and matches the allow list by name, port and subdomain', () => {
    expect(parseDomain('LocalHost:8080')).toEqual({ host: 'localhost', port: 8080 });
    expect(() => parseDomain('http://x')).toThrow('host names as NAME or NAME:PORT');
    expect(() => parseDomain('x:0')).toThrow('port 1 to 65535');
    expect(domainAllowed(policy.allowDomains, 'localhost', 8080)).toBe(true);
    expect(domainAllowed(policy.allowDomains, 'localhost', 8081)).toBe(false);
    expect(domainAllowed(policy.allowDomains, 'api.example.com', 443)).toBe(true);
    expect(domainAllowed(policy.allowDomains, 'example.com.evil.net', 443)).toBe(false);
    expect(domainAllowed(policy.allowDomains, '127.0.0.1', 8080)).toBe(false);
  });
});

describe('seccompProgram', () => {
  it('is whole sock_filter instructions, compares TIOCSTI and TIOCLINUX, returns EPERM for them', () => {
    const bytes = seccompProgram('x64');
    expect(bytes.length % 8).toBe(0);
    const ks = Array.from({ length: bytes.length / 8 }, (_, i) => bytes.readUInt32LE(i * 8 + 4));
    expect(ks).toContain(TIOCSTI);
    expect(ks).toContain(TIOCLINUX);
    expect(ks).toContain(0x00050001);
    expect(seccompProgram('arm64').equals(bytes)).toBe(false);
  });

  it('refuses an architecture it has no syscall table for', () => {
    expect(() => seccompProgram('ia32')).toThrow('built for x64 and arm64 only (this host is ia32)');
  });
});

const context: ScanContext = {
  policy,
  cwd: ws,
  commandText: () => 'python3 -c "fcntl.ioctl(0, termios.TIOCSTI, b\'x\')"',
};
const effects = { hostPidExists: (pid: number) => pid === 4242, realPath: hostRealPath(realpathSync) };
const scan = (line: string) => scanLine(line, context, effects, 1).map(violationLine);

describe('scanLine', () => {
  it('tells writes from the error lines of bash, dash, coreutils, python and node', () => {
    expect(scan('bash: line 1: /etc/hosts: Read-only file system')).toEqual([
      'sandbox: write to /etc/hosts refused',
    ]);
    expect(scan('sh: 1: cannot create /tmp/my dir/x: Read-only file system')).toEqual([
      'sandbox: write to /tmp/my dir/x refused',
    ]);
    expect(scan("touch: cannot touch '/tmp/x': Read-only file system")).toEqual([
      'sandbox: write to /tmp/x refused',
    ]);
    expect(scan("OSError: [Errno 30] Read-only file system: '/usr/y'")).toEqual([
      'sandbox: write to /usr/y refused',
    ]);
    expect(scan("Error: EROFS: read-only file system, open '/opt/z'")).toEqual([
      'sandbox: write to /opt/z refused',
    ]);
  });

  it('names where a workspace symlink really points', () => {
    writeFileSync(join(root, 'target'), '');
    symlinkSync(join(root, 'target'), join(ws, 'link'));
    expect(scan('bash: link: Read-only file system')).toEqual([
      `sandbox: write to ${join(ws, 'link')} (-> ${join(root, 'target')}) refused`,
    ]);
  });

  it('tells reads only of hidden paths, signals only to pids that live on the host', () => {
    expect(scan(`cat: ${home}/.ssh/id_rsa: Permission denied`)).toEqual([
      `sandbox: read of ${home}/.ssh/id_rsa refused`,
    ]);
    expect(scan('cat: /etc/shadow: Permission denied')).toEqual([]);
    expect(scan('bash: kill: (4242) - No such process')).toEqual([
      'sandbox: signal to pid 4242 refused (host processes are outside the sandbox)',
    ]);
    expect(scan('bash: kill: (4243) - No such process')).toEqual([]);
    expect(scan('PermissionError: [Errno 1] Operation not permitted')).toEqual([
      'sandbox: terminal input injection (TIOCSTI) refused',
    ]);
    expect(scan('hello world')).toEqual([]);
  });
});

describe('scanLine: lowercase and other texts real tools print', () => {
  it("tells Go's lowercase errno texts (`open PATH: permission denied`), node's, and Rust's backquoted paths", () => {
    expect(scan(`gojq: error: open ${home}/.ssh/id_rsa: permission denied`)).toEqual([
      `sandbox: read of ${home}/.ssh/id_rsa refused`,
    ]);
    expect(scan('open /etc/x: read-only file system')).toEqual(['sandbox: write to /etc/x refused']);
    expect(scan('mkdir /opt/y: read-only file system')).toEqual(['sandbox: write to /opt/y refused']);
    expect(scan(`Error: EACCES: permission denied, open '${home}/.netrc'`)).toEqual([
      `sandbox: read of ${home}/.netrc refused`,
    ]);
    expect(scan('Error: could not write `/etc/z`: Read-only file system (os error 30)')).toEqual([
      'sandbox: write to /etc/z refused',
    ]);
  });

  it("tells Java's `PATH (errno text)`, whose path stands before the words in parentheses", () => {
    expect(
      scan('Exception in thread "main" java.io.FileNotFoundException: /tmp/my dir/x (Read-only file system)'),
    ).toEqual(['sandbox: write to /tmp/my dir/x refused']);
    expect(scan(`java.io.FileNotFoundException: ${home}/.ssh/config (Permission denied)`)).toEqual([
      `sandbox: read of ${home}/.ssh/config refused`,
    ]);
    expect(scan('java.nio.file.FileSystemException: /etc/hosts: Read-only file system')).toEqual([
      'sandbox: write to /etc/hosts refused',
    ]);
    expect(scan(`java.io.FileNotFoundException: ${ws}/out.txt (Read-only file system)`)).toEqual([]);
  });

  it("tells a host's unix socket a program could not connect to (tmux names it), nothing without one", () => {
    const sockets = new Set(['/tmp/tmux-0/default']);
    const withSockets = { ...effects, isSocket: (path: string) => sockets.has(path) };
    const told = (line: string, command = 'tmux ls') =>
      scanLine(line, { ...context, commandText: () => command }, withSockets, 1).map(violationLine);
    expect(told('error connecting to /tmp/tmux-0/default (Operation not permitted)')).toEqual([
      'sandbox: connection to unix socket /tmp/tmux-0/default refused',
    ]);
    // A path that is no socket, or none at all (Python's socket() names nothing): untold.
    expect(told('error connecting to /tmp/tmux-0/other (Operation not permitted)')).toEqual([]);
    expect(told('PermissionError: [Errno 1] Operation not permitted')).toEqual([]);
    // The TIOCSTI rule still answers a line without a socket.
    expect(told('PermissionError: [Errno 1] Operation not permitted', 'ioctl TIOCSTI')).toEqual([
      'sandbox: terminal input injection (TIOCSTI) refused',
    ]);
  });

  it('reports nothing for a line that names no refused path beside the words', () => {
    expect(scan('docs: permission denied means the file is not yours')).toEqual([]);
    expect(scan('notes.txt: read-only file system')).toEqual([]);
    expect(scan(`open ${ws}/notes.txt: read-only file system`)).toEqual([]);
    expect(scan(`echo: ${ws}/notes.txt: Read-only file system`)).toEqual([]);
    expect(scan('the words read-only file system and permission denied, in prose')).toEqual([]);
    expect(scan(`open /etc/shadow: permission denied`)).toEqual([]);
  });
});

describe('checkSandboxSupport', () => {
  const effects = (over: Partial<SupportEffects>): SupportEffects => ({
    platform: 'linux',
    arch: 'x64',
    which: (name) => `/usr/bin/${name}`,
    sandboxInit: '/pkg/dist/native/sandbox-init-linux-x64',
    run: async () => ({ code: 0, stderr: '' }),
    ...over,
  });
  const refusal = (over: Partial<SupportEffects>) =>
    checkSandboxSupport(effects(over)).then(
      () => undefined,
      (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
    );

  it('names what is missing: the OS, bwrap, socat where no sandbox-init was built, user namespaces', async () => {
    expect(await refusal({ platform: 'win32' })).toMatch(
      /^ERR_PROCESS_UNSUPPORTED: sandboxed sessions need Linux .*win32/,
    );
    expect(await refusal({ platform: 'darwin' })).toMatch(/darwin/);
    expect(await refusal({ which: (n) => (n === 'bwrap' ? undefined : '/x') })).toBe(
      'ERR_PROCESS_UNSUPPORTED: sandboxed sessions need bwrap on PATH (Debian/Ubuntu: apt-get install bubblewrap)',
    );
    // socat is needed only where the package's own forwarder was not built.
    expect(await refusal({ which: (n) => (n === 'socat' ? undefined : '/x') })).toBeUndefined();
    expect(await refusal({ which: (n) => (n === 'socat' ? undefined : '/x'), sandboxInit: undefined })).toBe(
      "ERR_PROCESS_UNSUPPORTED: sandboxed sessions need socat on PATH (socat forwards to the proxy where this package's sandbox-init was not built, as here for x64) (Debian/Ubuntu: apt-get install socat)",
    );
    expect(await refusal({ which: () => undefined, sandboxInit: undefined })).toMatch(
      /need bwrap and socat on PATH .*apt-get install bubblewrap socat\)$/,
    );
    expect(
      await refusal({
        run: async () => ({ code: 1, stderr: 'bwrap: No permissions to create new namespace' }),
      }),
    ).toMatch(/cannot create user, pid and network namespaces here \(bwrap: No permissions/);
    expect(await refusal({})).toBeUndefined();
  });
});

describe('chooseForwarder', () => {
  const fx = (over: Partial<ForwarderEffects> = {}): ForwarderEffects => ({
    arch: 'arm64',
    sandboxInit: '/pkg/dist/native/sandbox-init-linux-arm64',
    which: (name) => `/usr/bin/${name}`,
    ...over,
  });
  const refusal = (asked: unknown, over: Partial<ForwarderEffects> = {}) => {
    try {
      return chooseForwarder(asked, fx(over));
    } catch (error) {
      return `${(error as { code: string }).code}: ${(error as Error).message}`;
    }
  };

  it('is sandbox-init by default and when asked; socat only when asked for by name', () => {
    expect(refusal(undefined)).toEqual({
      kind: 'sandbox-init',
      path: '/pkg/dist/native/sandbox-init-linux-arm64',
    });
    expect(refusal('sandbox-init')).toEqual({
      kind: 'sandbox-init',
      path: '/pkg/dist/native/sandbox-init-linux-arm64',
    });
    expect(refusal('socat')).toEqual({ kind: 'socat', bash: '/usr/bin/bash' });
    expect(refusal('nc')).toBe(
      `ERR_INVALID_OPTION: forwarder must be 'sandbox-init', 'socat' or undefined (got "nc")`,
    );
  });

  it('refuses to start without sandbox-init unless socat is asked for: the unix-socket wall would be missing', () => {
    for (const asked of [undefined, 'sandbox-init']) {
      expect(refusal(asked, { sandboxInit: undefined })).toMatch(
        /^ERR_PROCESS_UNSUPPORTED: this package's sandbox-init was not built for arm64, and without it a sandboxed program can connect to the host's unix sockets .*build-native\.mjs\), or ask for forwarder 'socat', which does not refuse them$/,
      );
    }
    expect(refusal('socat', { sandboxInit: undefined })).toEqual({ kind: 'socat', bash: '/usr/bin/bash' });
    expect(refusal('socat', { which: (n) => (n === 'socat' ? undefined : `/bin/${n}`) })).toBe(
      'ERR_PROCESS_UNSUPPORTED: forwarder socat needs socat on PATH (Debian/Ubuntu: apt-get install socat)',
    );
    expect(refusal('socat', { which: (n) => (n === 'bash' ? undefined : `/bin/${n}`) })).toMatch(
      /^ERR_PROCESS_UNSUPPORTED: forwarder socat needs bash on PATH/,
    );
  });
});
