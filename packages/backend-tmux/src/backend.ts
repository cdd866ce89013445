// The tmux backend: a host PTY backend (persistent) and a recovery backend on one private
// tmux server whose socket and per-session files live under one directory.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createTreeMarker,
  type ProcessRecoveryBackend,
  ProcmuxError,
  type RecoveredProcessHandle,
  type RecoveryAttachRequest,
  TREE_MARKER_ENV,
} from '@procmux/core-types';
import { killProcessTree } from '@procmux/kill-posix';
import type { ProcessPtyBackend, PtyBackendHandle, PtyStartRequest } from '@procmux/sessions';
import { closeInheritedDescriptors } from '@procmux/shell-wrap';
import { HostWatchdog, type SessionCgroup } from '@procmux/supervisor';
import { adoptPane, holdPane, type PaneContainment } from './containment.js';
import {
  decodeRef,
  envScript,
  isSafePath,
  type Layout,
  layoutOf,
  newSessionName,
  parseExitFile,
  type SessionFiles,
} from './layout.js';
import { resolveTmuxOptions, type TmuxBackendOptions } from './options.js';
import { TmuxPane, warnCgroupLeft } from './pane.js';
import { localJoinEffects, untilPaneJoined } from './pane-joined.js';
import { startCommands } from './start-commands.js';
import { runStart } from './start-retry.js';
import { failureWords, locateTmux, runPastExit, saysGone, type TmuxBinary, TmuxServer } from './tmux-cli.js';

export interface TmuxBackend extends ProcessPtyBackend, ProcessRecoveryBackend {
  readonly persistent: true;
  /** `sandbox`: panes run on this host, so an OS-sandboxed session's launcher runs in one. */
  readonly capabilities: { readonly resize: true; readonly sandbox: true };
  /** Absolute path of the private server's socket. */
  readonly socket: string;
  readonly tmux: TmuxBinary;
  startPty(request: PtyStartRequest): Promise<PtyBackendHandle>;
  attach(request: RecoveryAttachRequest): Promise<RecoveredProcessHandle | null>;
  /**
   * Names of the tmux sessions on the private server (live and dead panes); [] when no server
   * runs. ERR_PROCESS_PTY_BACKEND when tmux could not be asked (never read as "none").
   */
  listSessions(): Promise<string[]>;
  /** The tmux server's pid while it runs. */
  serverPid(): Promise<number | undefined>;
  /**
   * Kills every session's process tree and the server, and deletes the session files.
   * ERR_PROCESS_PTY_BACKEND, with nothing killed or deleted, when the panes could not be listed.
   */
  killServer(): Promise<void>;
  /** Stops this host's watchdog without killing anything (`lifetime: 'host'` sessions end through sessions.dispose()). */
  dispose(): Promise<void>;
}

/** How long killServer() waits for the log writers of a killed server to finish. */
const WRITERS_WAIT_MS = 10_000;
/** How long killServer() gives the pane-died hooks of the panes it killed. */
const HOOKS_WAIT_MS = 3_000;

/** Waits until every session's log writer has set down its end mark (bounded). */
function settleWriters(sessions: readonly SessionFiles[]): Promise<void> {
  return waitFor(
    sessions.filter((f) => existsSync(f.log)).map((f) => f.eof),
    WRITERS_WAIT_MS,
  );
}

/** Resolves once every path exists, or after `ms`. */
async function waitFor(paths: readonly string[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  let left = paths.filter((p) => !existsSync(p));
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    left = left.filter((p) => !existsSync(p));
  }
}

/**
 * Removes the files in the sessions directory, not the directory: a straggler (a pane-died
 * hook tmux started just before it went) may still create one, and must not make this fail.
 */
function clearSessionFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return;
  }
  for (const name of names) rmSync(join(dir, name), { recursive: true, force: true });
}

/**
 * A persistent PTY backend on a private tmux server under `dir`. Throws ERR_PROCESS_UNSUPPORTED
 * when tmux is missing or older than 3.3, or on Windows.
 *
 * @example
 * const tmux = createTmuxBackend({ dir: '/var/tmp/my-app/tmux' });
 * const sessions = createProcessSessions({ cwd, ptyBackend: tmux });
 */
export function createTmuxBackend(options: TmuxBackendOptions): TmuxBackend {
  const resolved = resolveTmuxOptions(options);
  const layout = layoutOf(resolved.dir);
  const binary = resolved.tmux ?? locateTmux();
  const graceMs = resolved.killGraceMs;
  const logger = resolved.logger;
  mkdirSync(layout.sessions, { recursive: true, mode: 0o700 });
  // The server inherits the first client's environment. It must carry no tree marker: a tree
  // kill sweeps every process bearing its root's marker, and the host's own (or one shared by
  // all panes) would take the server and every other session with it.
  const clientEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('TMUX') && key !== TREE_MARKER_ENV) clientEnv[key] = value;
  }
  const server = new TmuxServer(binary, layout.socket, clientEnv);
  let watchdog: HostWatchdog | undefined;
  const live = new Map<string, TmuxPane>();

  const watch = (
    marker: string,
    pid: number,
    privateDir: string | undefined,
    cgroup: SessionCgroup | undefined,
  ) => {
    watchdog ??= new HostWatchdog({ platform: process.platform, graceMs, logger });
    watchdog.watch(marker, pid, cgroup?.dirs, privateDir === undefined ? undefined : [privateDir]);
  };

  const pane = (
    name: string,
    marker: string,
    pid: number | undefined,
    offset: number,
    onData: (d: string) => void,
    host: boolean,
    panePid?: number,
    privateDir?: string,
    held: { containment: PaneContainment; cgroup?: SessionCgroup } = { containment: 'marker' },
  ) => {
    const handle = new TmuxPane({
      server,
      name,
      files: layout.files(name),
      marker,
      pid,
      ...(panePid === undefined ? {} : { panePid }),
      offset,
      onData,
      ...(privateDir === undefined ? {} : { privateDir }),
      killGraceMs: graceMs,
      logger,
      containment: held.containment,
      ...(held.cgroup ? { cgroup: held.cgroup } : {}),
      onSettled: () => {
        live.delete(name);
        if (host) watchdog?.unwatch(marker);
      },
    });
    live.set(name, handle);
    return handle;
  };

  return {
    persistent: true,
    capabilities: { resize: true, sandbox: true },
    socket: layout.socket,
    tmux: binary,
    async startPty(request) {
      checkPrivateDir(request.privateDir);
      const name = newSessionName();
      const marker = createTreeMarker();
      const files = layout.files(name);
      // The same descriptor-closing prologue as a native session's (shell-wrap), so a command
      // string means the same here: bash with BASH_ENV, or the exec wrapper for a program.
      const held = await holdPane(resolved.containment, name, request, files.waiter);
      const { program, cgroup } = held;
      const spec = closeInheritedDescriptors({
        file: program.file,
        args: [...program.args],
        env: { ...request.env, TERM: request.term, [TREE_MARKER_ENV]: marker },
      });
      try {
        const waiter = held.containment === 'pid-namespace' ? files.waiter : undefined;
        writeSessionFiles(layout, files, envScript(files.env, spec.env, cgroup?.procsFiles, waiter));
      } catch (error) {
        await cgroup?.close().catch((left: unknown) => warnCgroupLeft(logger, name, left));
        throw error;
      }
      const host = request.lifetime !== 'detached';
      const target = { ...request, file: spec.file, args: spec.args };
      const out = await runStart(() =>
        server.run(
          startCommands({
            binary,
            layout,
            name,
            marker,
            host,
            request: target,
            files,
            ...(cgroup ? { cgroup: cgroup.dirs } : {}),
          }),
        ),
      );
      const pid = Number(/^(\d+)\s*$/m.exec(out.stdout)?.[1]);
      if (out.code !== 0 || !Number.isSafeInteger(pid)) {
        await server.run(['kill-session', '-t', name]);
        await cgroup?.close().catch((error: unknown) => warnCgroupLeft(logger, name, error));
        throw new ProcmuxError(
          'ERR_PROCESS_PTY_BACKEND',
          `tmux could not start the session: ${out.stderr.trim() || `exit code ${out.code}`}`,
        );
      }
      if (host) watch(marker, pid, request.privateDir, cgroup);
      if (cgroup) await untilPaneJoined(pid, localJoinEffects(cgroup));
      return pane(name, marker, pid, 0, request.onData, host, undefined, request.privateDir, held);
    },
    async attach(request) {
      const ref = decodeRef(request.ref, layout);
      if (!ref) return null;
      const files = layout.files(ref.session);
      const shown = await runPastExit(
        (args) => server.run(args),
        [
          'display-message',
          '-p',
          '-t',
          ref.session,
          '#{@procmux_marker} #{pane_pid} #{pane_dead} #{@procmux_lifetime}',
        ],
      );
      // A lookup that failed for another reason than "not there" says nothing of the pane:
      // read as gone, it removed a live pane's cgroup (killing its tree) and wrote it unknown.
      if (shown.code !== 0 && !saysGone(shown)) {
        throw new ProcmuxError(
          'ERR_RECOVERY_UNREACHABLE',
          `could not ask tmux about session ${ref.session} (${failureWords(shown)}); try again later`,
        );
      }
      const [marker, pidText, dead, lifetime] = shown.stdout.trim().split(' ');
      const sink = (data: string) => request.onStdout(data);
      // A session being torn down (the pane-died hook's kill-session, its pane already gone)
      // answers with every format empty and exit 0: seen 3 of 120 runs under load. It is gone.
      if (shown.code !== 0 || !pidText) {
        // No session: only an exit status written before it went makes this a real end.
        const ended = existsSync(files.exit) && parseExitFile(readFileSync(files.exit, 'utf8'));
        const held = adoptPane(ref.session, ref.cgroup, undefined);
        if (!ended) {
          await held.cgroup?.close().catch((error: unknown) => warnCgroupLeft(logger, ref.session, error));
          return null;
        }
        return pane(ref.session, ref.marker, undefined, ref.offset, sink, false, undefined, undefined, held);
      }
      if (marker !== ref.marker) return null;
      const pid = dead === '1' ? undefined : Number(pidText);
      const held = adoptPane(ref.session, ref.cgroup, pid);
      // A 'host' session whose host is gone must die, not be adopted.
      if (lifetime === 'host' && pid !== undefined) {
        await killProcessTree(pid, { marker: ref.marker, graceMs }).catch(() => {});
        await held.cgroup?.kill().catch(() => {});
      }
      // A dead pane keeps its pid for the reaper nudge: it may have died unreaped (unreaped.ts).
      return pane(ref.session, ref.marker, pid, ref.offset, sink, false, Number(pidText), undefined, held);
    },
    async listSessions() {
      const out = await server.list(['list-sessions', '-F', '#{session_name}']);
      return out.split('\n').filter((line) => line !== '');
    },
    async serverPid() {
      const out = await server.run(['display-message', '-p', '#{pid}']);
      const pid = Number(out.stdout.trim());
      return out.code === 0 && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
    },
    async killServer() {
      // Every pane's tree (escapees by marker), whoever started it, then the server.
      // A listing that failed throws here: nothing is killed or deleted on a guess.
      const out = await server.list([
        'list-panes',
        '-a',
        '-F',
        '#{session_name} #{pane_dead} #{pane_pid} #{@procmux_marker} #{@procmux_cgroup}',
      ]);
      const panes = out
        .split('\n')
        .map((line) => line.split(' '))
        .filter(([name]) => name !== undefined && name !== '');
      const trees = panes.filter(([, dead, pid]) => dead === '0' && Number(pid) > 0);
      // Each pane's cgroup (the one procmux made for it, nothing else), whoever made it.
      const cgroups = panes.flatMap(([name, , , , ...words]) => {
        const dirs = words.filter((dir) => dir !== '');
        const { cgroup } = adoptPane(name!, dirs.length > 0 ? dirs : undefined, undefined);
        return cgroup ? [{ name: name!, cgroup }] : [];
      });
      await Promise.all(
        trees.map(([, , pid, marker]) =>
          killProcessTree(Number(pid), { graceMs, ...(marker ? { marker } : {}) }).catch(() => {}),
        ),
      );
      await Promise.all(
        cgroups.map(({ name, cgroup }) =>
          cgroup.close().catch((error: unknown) => warnCgroupLeft(logger, name, error)),
        ),
      );
      // Their pane-died hooks write the exit files; let them (bounded) before the server goes.
      await waitFor(
        trees.map(([name]) => layout.files(name!).exit),
        HOOKS_WAIT_MS,
      );
      await server.run(['kill-server']);
      // The panes' log writers outlive the server by a moment (they set down the last bytes,
      // then the end mark); removing files under them raced (ENOTEMPTY in the bench).
      await settleWriters(panes.map(([name]) => layout.files(name!)));
      clearSessionFiles(layout.sessions);
      await watchdog?.dispose();
      watchdog = undefined;
    },
    async dispose() {
      for (const handle of live.values()) handle.release();
      live.clear();
      await watchdog?.dispose();
      watchdog = undefined;
    },
  };
}

export type { Layout };

/** The pane-died hook removes it through sh: an absolute procmux-named path needing no quoting. */
function checkPrivateDir(dir: string | undefined): void {
  if (dir === undefined || (isSafePath(dir) && /\/procmux-[^/]+$/.test(dir))) return;
  throw new ProcmuxError(
    'ERR_PROCESS_PTY_BACKEND',
    `the tmux backend cannot own the private directory ${JSON.stringify(dir)}: it must be an absolute path of letters, digits and _ . / @ + , : ~ - ending in procmux-*; no program was started`,
  );
}

/** The start script and the empty log; on a full disk an error naming it, and nothing left behind. */
function writeSessionFiles(layout: Layout, files: SessionFiles, script: string): void {
  try {
    writeFileSync(files.env, script, { mode: 0o600 });
    writeFileSync(files.log, '', { mode: 0o600 });
  } catch (error) {
    rmSync(files.env, { force: true });
    rmSync(files.log, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ProcmuxError(
      'ERR_PROCESS_PTY_BACKEND',
      `the tmux backend could not write a session's files under ${layout.sessions} (${code}${code === 'ENOSPC' ? ': the file system is full' : ''}); no program was started`,
    );
  }
}
