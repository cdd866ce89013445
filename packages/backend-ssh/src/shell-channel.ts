// Short commands over one long-lived shell instead of an exec channel each. sshd runs every
// exec as `$SHELL -c CMD`, and a login shell's rc (Debian's bash reads ~/.bashrc there) costs
// what it costs once per exec: 0.7–1.1 s of `pyenv init` on this machine, for a tmux call that
// takes milliseconds. One `sh` per connection pays it once; commands go to its stdin one after
// another, each framed by an end marker carrying its exit status.
import { randomBytes } from 'node:crypto';
import { ProcmuxError } from '@procmux/core-types';
import type { ClientChannel } from 'ssh2';

/** What runs a command to its end: stdout, stderr (UTF-8) and the exit code. */
export interface ShellResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface ShellChannelOptions {
  /** Opens the exec channel the shell runs on (a new one after the last one died). */
  open(command: string): Promise<ClientChannel>;
  /** The error a command gets when the connection under the channel was lost; undefined while it runs. */
  lost(): Error | undefined;
  /** Names the host in messages. */
  name: string;
  /** Output kept per stream and command (UTF-16 units); the rest is dropped and the command fails (default 4 Mi). */
  maxOutputChars?: number;
  /** A command still running after this long fails, and the shell is replaced (default 60 s). */
  timeoutMs?: number;
  /** A shell not running this long after its exec was opened (the login shell's rc) fails the command waiting for it (default 60 s). */
  startTimeoutMs?: number;
}

interface Pending {
  /** The channel the command went to. */
  on: Promise<ClientChannel>;
  nonce: string;
  stdout: string;
  stderr: string;
  code: number | undefined;
  stderrDone: boolean;
  overflow: boolean;
  resolve(result: ShellResult): void;
  reject(error: unknown): void;
}

/**
 * One `sh` on the remote host, reading commands from its stdin. Commands run one at a time in
 * call order, each in a subshell (`exit`, `cd` or a syntax error end that subshell only) with
 * stdin from /dev/null or the given input, never the shell's own. When the channel dies (the
 * shell was killed, or a command overran its time) the command in flight fails and the next
 * one opens a new shell.
 */
export class ShellChannel {
  readonly #options: Required<Omit<ShellChannelOptions, 'open' | 'lost' | 'name'>> & ShellChannelOptions;
  #channel: Promise<ClientChannel> | undefined;
  #pending: Pending | undefined;
  #tail: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: ShellChannelOptions) {
    this.#options = {
      maxOutputChars: 4 * 1024 * 1024,
      timeoutMs: 60_000,
      startTimeoutMs: 60_000,
      ...options,
    };
  }

  /** Runs a POSIX sh command line to its end with `input` on its stdin. Never throws for a non-zero exit. */
  run(command: string, input?: Buffer): Promise<ShellResult> {
    const next = this.#tail.then(() => this.#runNow(command, input));
    this.#tail = next.then(
      () => {},
      () => {},
    );
    return next;
  }

  /** Ends the shell; a later run() fails. */
  close(): void {
    this.#closed = true;
    const channel = this.#channel;
    this.#channel = undefined;
    void channel?.then((c) => c.close()).catch(() => {});
  }

  async #runNow(command: string, input: Buffer | undefined): Promise<ShellResult> {
    if (this.#closed) {
      throw new ProcmuxError('ERR_PROCESS_STATE', `the command shell on ${this.#options.name} is closed`);
    }
    const on = this.#ensure();
    const channel = await on;
    const nonce = `procmux-end-${randomBytes(12).toString('hex')}`;
    return new Promise<ShellResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.#pending?.nonce !== nonce) return;
        this.#fail(
          new ProcmuxError(
            'ERR_PROCESS_PTY_BACKEND',
            `a command on ${this.#options.name} did not finish within ${this.#options.timeoutMs} ms`,
          ),
        );
      }, this.#options.timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.#pending = undefined;
        settle();
      };
      this.#pending = {
        on,
        nonce,
        stdout: '',
        stderr: '',
        code: undefined,
        stderrDone: false,
        overflow: false,
        resolve: (result) => done(() => resolve(result)),
        reject: (error) => done(() => reject(error)),
      };
      channel.write(frame(command, input, nonce));
    });
  }

  /**
   * The live channel, opened (through the login shell, once) when there is none. Ready once
   * the shell has echoed a token on both streams: what the login shell's rc printed before
   * is dropped, and a command's time starts only when a shell is there to run it.
   */
  #ensure(): Promise<ClientChannel> {
    if (this.#channel) return this.#channel;
    const token = `procmux-ready-${randomBytes(8).toString('hex')}\n`;
    const opening: Promise<ClientChannel> = this.#options.open('exec sh').then(
      (channel) =>
        new Promise<ClientChannel>((resolve, reject) => {
          channel.setEncoding('utf8');
          channel.stderr.setEncoding('utf8');
          const early = { stdout: '', stderr: '' };
          let ready = false;
          let ended = false;
          const take = (stream: 'stdout' | 'stderr', data: string) => {
            if (ready) return this.#data(stream, data);
            early[stream] += data;
            if (!early.stdout.includes(token) || !early.stderr.includes(token)) {
              // Bounded: only a token's length is needed to find one split across reads.
              if (!early[stream].includes(token)) early[stream] = early[stream].slice(-token.length);
              return;
            }
            ready = true;
            clearTimeout(starting);
            resolve(channel);
            for (const s of ['stdout', 'stderr'] as const) {
              const rest = early[s].slice(early[s].indexOf(token) + token.length);
              if (rest !== '') this.#data(s, rest);
            }
          };
          channel.on('data', (data: string) => take('stdout', data));
          channel.stderr.on('data', (data: string) => take('stderr', data));
          // The shell's exit, not the channel's close: a command's background child may hold
          // the channel open long after the shell died.
          const end = () => {
            if (ended) return;
            ended = true;
            if (this.#channel === opening) this.#channel = undefined;
            channel.close();
            const error =
              this.#options.lost() ??
              new ProcmuxError(
                'ERR_PROCESS_PTY_BACKEND',
                ready
                  ? `the command shell on ${this.#options.name} ended before the command did`
                  : `the command shell on ${this.#options.name} ended before it was ready`,
              );
            if (!ready) reject(error);
            else if (this.#pending?.on === opening) this.#fail(error);
          };
          channel.on('exit', end);
          channel.on('close', end);
          // A login shell that never gets to `sh` (an rc waiting on something) must not hold
          // every later command.
          const starting = setTimeout(() => {
            if (ready || ended) return;
            ended = true;
            if (this.#channel === opening) this.#channel = undefined;
            channel.close();
            reject(
              new ProcmuxError(
                'ERR_PROCESS_PTY_BACKEND',
                `the command shell on ${this.#options.name} did not start within ${this.#options.startTimeoutMs} ms`,
              ),
            );
          }, this.#options.startTimeoutMs);
          channel.once('close', () => clearTimeout(starting));
          channel.write(`printf '%s' ${quote(token)}; printf '%s' ${quote(token)} >&2\n`);
        }),
    );
    this.#channel = opening;
    opening.catch(() => {
      if (this.#channel === opening) this.#channel = undefined;
    });
    return opening;
  }

  #data(stream: 'stdout' | 'stderr', data: string): void {
    const p = this.#pending;
    if (!p) return;
    p[stream] += data;
    if (stream === 'stderr' && !p.stderrDone) {
      const at = p.stderr.indexOf(`${p.nonce}\n`);
      if (at >= 0) {
        p.stderr = p.stderr.slice(0, at);
        p.stderrDone = true;
      }
    }
    if (stream === 'stdout' && p.code === undefined) {
      const match = new RegExp(`${p.nonce}:(\\d+)\\n`).exec(p.stdout);
      if (match) {
        p.stdout = p.stdout.slice(0, match.index);
        p.code = Number(match[1]);
      }
    }
    this.#bound(p, stream);
    if (p.code !== undefined && p.stderrDone) {
      if (p.overflow) {
        p.resolve({
          stdout: p.stdout,
          stderr: `${p.stderr}\noutput past ${this.#options.maxOutputChars} characters was dropped`,
          code: p.code === 0 ? 1 : p.code,
        });
      } else {
        p.resolve({ stdout: p.stdout, stderr: p.stderr, code: p.code });
      }
    }
  }

  /** Drops output past the bound, keeping enough of the end to find the marker in. */
  #bound(p: Pending, stream: 'stdout' | 'stderr'): void {
    const max = this.#options.maxOutputChars;
    const done = stream === 'stdout' ? p.code !== undefined : p.stderrDone;
    if (done) {
      if (p[stream].length > max) {
        p.overflow = true;
        p[stream] = p[stream].slice(0, max);
      }
      return;
    }
    const keep = p.nonce.length + 16;
    if (p[stream].length <= max + keep) return;
    p.overflow = true;
    p[stream] = p[stream].slice(0, max) + p[stream].slice(-keep);
  }

  #fail(error: unknown): void {
    const p = this.#pending;
    if (!p) return;
    p.reject(error);
    // The shell may still be inside the command that failed: the next one gets a new shell.
    if (this.#channel === p.on) this.#channel = undefined;
    void p.on.then((c) => c.close()).catch(() => {});
  }
}

/**
 * One command as the shell reads it: a subshell with its input as printf's octal escapes (any
 * byte, NUL included, no quoting to get wrong), then its status after a marker on stdout and
 * the marker alone on stderr, so both streams are known to be complete.
 */
export function frame(command: string, input: Buffer | undefined, nonce: string): string {
  const source = input === undefined ? '</dev/null' : '';
  const feed = input === undefined ? '' : `printf '${octal(input)}' | `;
  return (
    `${feed}(eval ${quote(command)}) ${source}; s=$?; ` +
    `printf '%s\\n' ${nonce} >&2; printf '%s:%d\\n' ${nonce} "$s"\n`
  );
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Bytes as a printf format: safe characters as themselves, every other byte as `\ooo`. */
function octal(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    const safe =
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
    out += safe ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return out;
}
