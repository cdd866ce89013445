import { isProcmuxError } from '@procmux/core-types';
import { CliUsageError, parseCliArgs } from './args.js';
import type { CliProcess } from './cli-process.js';
import { runDemo } from './demo.js';
import { helpText } from './help.js';
import { serveHttp } from './http-serve.js';
import { runPrune } from './prune-command.js';
import { type ServeHandle, type ServeOptions, serveStdio } from './serve.js';
import { resolveStateDir } from './state-dir.js';
import { packageVersion } from './version.js';

/**
 * Runs `procmux <argv>` and resolves to the exit code: 0 on success, 1 when the demo or the
 * server failed, 2 for a usage error.
 */
export async function main(argv: readonly string[], proc: CliProcess = nodeCliProcess()): Promise<number> {
  let command: ReturnType<typeof parseCliArgs>;
  try {
    command = parseCliArgs(argv, proc.cwd());
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    proc.stderr.write(`procmux: ${error.message}\nRun procmux --help for usage.\n`);
    return 2;
  }
  switch (command.kind) {
    case 'help':
      proc.stdout.write(helpText(packageVersion()));
      return 0;
    case 'version':
      proc.stdout.write(`${packageVersion()}\n`);
      return 0;
    case 'demo': {
      const controller = new AbortController();
      const off = proc.onStopSignal(() => controller.abort());
      try {
        return await runDemo({
          write: (text) => proc.stdout.write(text),
          color: proc.stdout.isTTY === true && proc.env.NO_COLOR === undefined,
          signal: controller.signal,
        });
      } finally {
        off();
      }
    }
    case 'prune':
      return runPrune(command, proc);
    case 'mcp': {
      // A client that died takes our stderr with it: a log line then fails (EPIPE). Unheard, that
      // failure was an uncaught error whose report, written to stderr again, failed the same
      // way for ever (a server at 100% CPU, its sessions never killed). The log is lost; the
      // closed stdin or stdout still stops the server.
      proc.stderr.on('error', () => {});
      let handle: ServeHandle;
      const { http } = command;
      const serve = http ? (o: ServeOptions) => serveHttp({ ...o, http }) : serveStdio;
      try {
        handle = await serve({
          cwd: command.cwd,
          stdin: proc.stdin,
          stdout: proc.stdout,
          maxSessions: command.maxSessions,
          maxEndedSessions: command.maxEndedSessions,
          pty: command.pty,
          view: command.view,
          stateDir: resolveStateDir(command.cwd, command.stateDir, proc.env),
          ssh: command.ssh,
          sandbox: command.sandbox,
          store: command.store,
          leaseTtlMs: command.leaseTtlMs,
          resourceLimits: command.resourceLimits,
          log: (line) => proc.stderr.write(`${line}\n`),
        });
      } catch (error) {
        if (!isProcmuxError(error)) throw error;
        proc.stderr.write(`procmux: ${error.message}\n`);
        return 2;
      }
      const off = proc.onStopSignal((signal) => void handle.close(`got ${signal}`));
      // A bug must not leave sessions running: they live in their own process groups.
      let crashed = false;
      const offCrash = proc.onCrash((error) => {
        crashed = true;
        proc.stderr.write(
          `procmux mcp: internal error: ${error instanceof Error ? error.stack : String(error)}\n`,
        );
        void handle.close('an internal error');
      });
      await handle.closed;
      off();
      offCrash();
      return crashed ? 1 : 0;
    }
  }
}

/** The real process: its streams, cwd, environment, stop signals and crash events. */
export function nodeCliProcess(): CliProcess {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: () => process.cwd(),
    env: process.env,
    onStopSignal(handler) {
      const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
      for (const signal of signals) process.on(signal, handler);
      return () => {
        for (const signal of signals) process.off(signal, handler);
      };
    },
    onCrash(handler) {
      process.on('uncaughtException', handler);
      process.on('unhandledRejection', handler);
      return () => {
        process.off('uncaughtException', handler);
        process.off('unhandledRejection', handler);
      };
    },
  };
}
