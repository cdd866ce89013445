// openStdinTerminal: a pair opened without a child; both ends closed again by close().
import {
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  write,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcmuxError } from '@procmux/core-types';
import { waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { openStdinTerminal } from '../src/index.js';

const fds = () => readdirSync('/proc/self/fd').length;

describe('openStdinTerminal', () => {
  it.skipIf(process.platform !== 'linux')(
    'holds a blocking close-on-exec slave until exited(), the master until close()',
    async () => {
      await openStdinTerminal().then((t) => t.close()); // loads the backend first
      const before = fds();
      const terminal = await openStdinTerminal();
      expect(terminal.path).toMatch(/^\/dev\/pts\/\d+$/);
      expect(readlinkSync(`/proc/self/fd/${terminal.slaveFd}`)).toBe(terminal.path);
      const flags = /flags:\s+(\d+)/.exec(readFileSync(`/proc/self/fdinfo/${terminal.slaveFd}`, 'utf8'))?.[1];
      const octal = Number.parseInt(flags ?? '0', 8);
      expect(octal & 0o2000000).not.toBe(0); // O_CLOEXEC
      expect(octal & 0o4000).toBe(0); // not O_NONBLOCK
      // node-pty's own slave copy is gone already: one slave and one master more.
      expect(fds()).toBe(before + 2);
      terminal.exited();
      expect(fds()).toBe(before + 1);
      terminal.endInput();
      terminal.close();
      terminal.close();
      // The stream closes the master on its next turn.
      await waitFor(() => fds() === before, 5_000, 'the master closed');
    },
  );

  it.skipIf(process.platform === 'win32')(
    'hands what the slave side writes to onOutput until the first typed byte, then drops it; drained() after the slave closes',
    async () => {
      const terminal = await openStdinTerminal();
      let shown = '';
      terminal.onOutput!((text) => {
        shown += text;
      });
      // The host writes at the slave as a program writes to /dev/tty (é split across writes).
      const e = Buffer.from('é');
      writeSync(terminal.slaveFd, Buffer.concat([Buffer.from('Password'), e.subarray(0, 1)]));
      writeSync(terminal.slaveFd, Buffer.concat([e.subarray(1), Buffer.from(': ')]));
      await waitFor(() => shown === 'Passwordé: ', 5_000, 'the prompt on the master');
      terminal.write('typed\n');
      writeSync(terminal.slaveFd, 'after\n');
      let drained = false;
      void terminal.drained!().then(() => {
        drained = true;
      });
      // Let go of the slave (the host held the only copy): the master is read out, then EIO.
      terminal.exited();
      await waitFor(() => drained, 5_000, 'the master read out once no slave is left');
      expect(shown).toBe('Passwordé: ');
      terminal.close();
    },
  );

  it('a pair that cannot be opened is ERR_PROCESS_PTY_BACKEND', async () => {
    const error = await openStdinTerminal({
      open: () => {
        throw new Error('ENOSPC');
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
  });

  it('a slave that cannot be opened is ERR_PROCESS_PTY_BACKEND, and both ends of the pair are closed', async () => {
    const master = openSync('/dev/null', 'r');
    const slave = openSync('/dev/null', 'r');
    const error = await openStdinTerminal({
      open: () => ({ master, slave, pty: '/nonexistent/pts/99' }),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    expect((error as Error).message).toContain('/nonexistent/pts/99');
    expect(() => fstatSync(master)).toThrow(/EBADF/);
    expect(() => fstatSync(slave)).toThrow(/EBADF/);
  });

  it('drops input written after close() instead of throwing', async () => {
    const terminal = await openStdinTerminal();
    terminal.exited();
    terminal.close();
    expect(() => terminal.write('late\n')).not.toThrow();
    expect(() => terminal.endInput()).not.toThrow();
  });

  it.skipIf(process.platform !== 'linux')(
    "writes nothing once the terminal hung up: input typed after it never reaches the descriptor that took the master's number",
    async () => {
      const masters = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === '/dev/ptmx';
          } catch {
            return false;
          }
        });
      const before = new Set(masters());
      const terminal = await openStdinTerminal();
      const master = Number(masters().find((fd) => !before.has(fd)));
      // The last slave holder goes: the master hangs up (EIO) and its stream closes it.
      terminal.exited();
      await terminal.drained!();
      await waitFor(() => !masters().includes(String(master)), 5_000, 'the master to be closed');
      // Lowest free number first: files opened now take the master's number.
      const dir = mkdtempSync(join(tmpdir(), 'procmux-stale-master-'));
      const opened: number[] = [];
      try {
        while (!opened.includes(master) && opened.length < 256)
          opened.push(openSync(join(dir, `file-${opened.length}`), 'w+'));
        expect(opened).toContain(master);
        terminal.write('typed after the hang-up\n');
        terminal.endInput();
        // One write through the thread pool on that descriptor, after anything queued before it.
        await new Promise((resolve) => write(master, '', resolve));
        expect(readFileSync(join(dir, `file-${opened.indexOf(master)}`), 'utf8')).toBe('');
      } finally {
        for (const fd of opened) closeSync(fd);
        rmSync(dir, { recursive: true, force: true });
        terminal.close();
      }
    },
  );
});
