// A persistent PTY backend on a private tmux server on another machine: the local backend's
// pane (start-commands.ts), files (layout.ts) and refs, with every tmux call, file and kill
// going over the connection the host effect wraps (an SSH connection in @procmux/backend-ssh).
import {
  createTreeMarker,
  oneOf,
  type ProcessRecoveryBackend,
  ProcmuxError,
  type RecoveredProcessHandle,
  type RecoveryAttachRequest,
  TREE_MARKER_ENV,
} from '@procmux/core-types';
import type { ProcessPtyBackend, PtyBackendHandle, PtyStartRequest } from '@procmux/sessions';
import { holdPane, type PaneContainment, type TmuxContainmentMode } from '../containment.js';
import { decodeRef, envScript, layoutOf, newSessionName, parseExitFile } from '../layout.js';
import { paneJoinedScript } from '../pane-joined.js';
import { startCommands } from '../start-commands.js';
import { runStart } from '../start-retry.js';
import { parseTmuxVersion, type TmuxBinary, TmuxServer, versionSupported } from '../tmux-cli.js';
import { commandLine, quoteWord, type RemoteTmuxHost } from './host.js';
import { paneProbe } from './pane-probe.js';
import { adoptRemotePane, remoteHolder, removeRemoteCgroup } from './remote-containment.js';
import { RemoteTmuxPane } from './remote-pane.js';

export interface RemoteTmuxBackend extends ProcessPtyBackend, ProcessRecoveryBackend {
  readonly persistent: true;
  readonly capabilities: { readonly resize: true };
  /** The socket's path on the other machine. */
  readonly socket: string;
  readonly tmux: TmuxBinary;
  /** The shell a command string runs under there: bash, or sh where there is none. */
  readonly shell: 'bash' | 'sh';
  startPty(request: PtyStartRequest): Promise<PtyBackendHandle>;
  attach(request: RecoveryAttachRequest): Promise<RecoveredProcessHandle | null>;
  /**
   * Names of the tmux sessions on the private server (live and dead panes); [] when no server
   * runs. ERR_PROCESS_PTY_BACKEND when tmux could not be asked (never read as "none").
   */
  listSessions(): Promise<string[]>;
  /**
   * Kills every session's tree there (escapees by marker, and by the cgroup made for the pane
   * where it has one), stops the server and deletes the session files; whoever started them.
   * ERR_PROCESS_PTY_BACKEND, with nothing killed or deleted, when the panes could not be listed.
   */
  killServer(): Promise<void>;
  /** Stops reading every session; they keep running there. */
  dispose(): Promise<void>;
}

export interface RemoteTmuxOptions {
  /** Directory of the socket and session files on the other machine (absolute). */
  dir: string;
  /**
   * The environment a program gets there from a start request's (this host's merged one):
   * what the request changed, as `@procmux/backend-ssh`'s `remoteEnv` decides.
   */
  environment(env: Record<string, string>): Record<string, string>;
  /**
   * What holds a pane's tree there, as createTmuxBackend's option (default 'auto': a cgroup
   * beneath the remote shell's own where it can be made, else a pid namespace there, else the
   * marker sweep); 'cgroup' and 'pid-namespace' fail a start the remote cannot give, naming why.
   */
  containment?: TmuxContainmentMode;
}

const INSTALL = 'install tmux 3.3 or newer there (Debian/Ubuntu: apt-get install tmux)';

/**
 * Finds tmux on the other machine, makes the directory there, and returns the backend.
 * ERR_PROCESS_UNSUPPORTED naming the machine when tmux is missing or older than 3.3.
 */
export async function createRemoteTmuxBackend(
  host: RemoteTmuxHost,
  options: RemoteTmuxOptions,
): Promise<RemoteTmuxBackend> {
  const layout = layoutOf(options.dir);
  const containment =
    oneOf('containment', options.containment, ['auto', 'cgroup', 'pid-namespace', 'marker'] as const) ??
    'auto';
  const probe = await host.run(
    'command -v tmux && tmux -V; if command -v bash >/dev/null 2>&1; then echo shell=bash; else echo shell=sh; fi; ' +
      `mkdir -p -m 700 ${quoteWord(layout.sessions)}; env -0 >&2`,
  );
  const lines = probe.stdout.split('\n');
  const shell = lines.includes('shell=bash') ? 'bash' : 'sh';
  const path = lines[0]?.startsWith('/') ? lines[0] : undefined;
  if (path === undefined) {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `tmux was not found on ${host.name}, where persist: true keeps sessions on a tmux server; ${INSTALL}`,
    );
  }
  const version = parseTmuxVersion(lines[1] ?? '');
  if (!version || !versionSupported(version)) {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `tmux on ${host.name} is ${lines[1]?.trim() || 'of unknown version'}, too old for persistent sessions; ${INSTALL}`,
    );
  }
  // The login environment there: a program gets it plus what its request changed.
  const base: Record<string, string> = {};
  for (const entry of probe.stderr.split('\0')) {
    const at = entry.indexOf('=');
    if (at > 0 && !entry.startsWith('TMUX') && !entry.startsWith(`${TREE_MARKER_ENV}=`)) {
      base[entry.slice(0, at)] = entry.slice(at + 1);
    }
  }
  const binary: TmuxBinary = { path, version: lines[1]!.trim() };
  const server = new TmuxServer(binary, layout.socket, {}, (file, args, input) =>
    host.run(commandLine([file, ...args]), input),
  );
  const live = new Map<string, RemoteTmuxPane>();
  const paneState = paneProbe(server, host.name);

  const holder = remoteHolder(host);
  // What a re-attached pane has; its cgroup is kept only when it is the one made for it.
  const adopt = async (session: string, dirs: readonly string[] | undefined, pid: number | undefined) => {
    const kind = await adoptRemotePane(host.run, session, dirs, pid);
    return kind === 'cgroup' && dirs !== undefined
      ? { containment: kind, cgroup: dirs[0] }
      : { containment: kind };
  };

  const pane = (
    name: string,
    marker: string,
    pid: number | undefined,
    offset: number,
    onData: (d: string) => void,
    held: { containment: PaneContainment; cgroup?: string | undefined },
  ) => {
    const handle = new RemoteTmuxPane({
      host,
      server,
      name,
      files: layout.files(name),
      marker,
      pid,
      offset,
      onData,
      containment: held.containment,
      ...(held.cgroup === undefined ? {} : { cgroup: held.cgroup }),
      onSettled: () => live.delete(name),
    });
    live.set(name, handle);
    return handle;
  };

  return {
    persistent: true,
    capabilities: { resize: true },
    socket: layout.socket,
    tmux: binary,
    shell,
    async startPty(request) {
      if (request.lifetime !== 'detached') {
        throw new ProcmuxError(
          'ERR_PROCESS_UNSUPPORTED',
          `the tmux server on ${host.name} holds persisted (detached) sessions only; others run over SSH directly`,
        );
      }
      const name = newSessionName();
      const marker = createTreeMarker();
      const files = layout.files(name);
      const env = {
        ...base,
        ...options.environment(request.env),
        TERM: request.term,
        [TREE_MARKER_ENV]: marker,
      };
      // A command string runs under the shell there, as a non-persisted session does.
      const command =
        request.shellCommand !== undefined
          ? { file: shell, args: [...(shell === 'bash' ? ['--norc'] : []), '-c', request.shellCommand] }
          : { file: request.file, args: request.args };
      // A cgroup there, else a pid namespace there, else the marker sweep (as a local pane).
      const held = await holdPane(containment, name, command, files.waiter, holder);
      const cgroup = held.cgroup?.dir;
      const target = held.program;
      const wrote = await host.run(
        `umask 077 && cat > ${quoteWord(files.env)} && : > ${quoteWord(files.log)}`,
        Buffer.from(
          envScript(
            files.env,
            env,
            cgroup === undefined ? [] : [`${cgroup}/cgroup.procs`],
            held.containment === 'pid-namespace' ? files.waiter : undefined,
          ),
        ),
      );
      if (wrote.code !== 0) {
        if (cgroup !== undefined) await removeRemoteCgroup(host.run, cgroup);
        throw new ProcmuxError(
          'ERR_PROCESS_PTY_BACKEND',
          `could not write the session files on ${host.name}: ${wrote.stderr.trim() || `exit code ${wrote.code}`}`,
        );
      }
      const out = await runStart(() =>
        server.run(
          startCommands({
            binary,
            layout,
            name,
            marker,
            host: false,
            request: { ...request, file: target.file, args: [...target.args] },
            files,
            ...(cgroup === undefined ? {} : { cgroup: [cgroup] }),
          }),
        ),
      );
      const pid = Number(/^(\d+)\s*$/m.exec(out.stdout)?.[1]);
      if (out.code !== 0 || !Number.isSafeInteger(pid)) {
        await server.run(['kill-session', '-t', name]);
        if (cgroup !== undefined) await removeRemoteCgroup(host.run, cgroup);
        throw new ProcmuxError(
          'ERR_PROCESS_PTY_BACKEND',
          `tmux on ${host.name} could not start the session: ${out.stderr.trim() || `exit code ${out.code}`}`,
        );
      }
      // Reported once the pane is in its cgroup (pane-joined.ts), waited for there.
      if (cgroup !== undefined) await host.run(paneJoinedScript(pid, quoteWord(`${cgroup}/cgroup.procs`)));
      const handle = pane(name, marker, pid, 0, request.onData, { containment: held.containment, cgroup });
      return Object.assign(handle, { shell: request.shellCommand !== undefined ? shell : null });
    },
    async attach(request) {
      const ref = decodeRef(request.ref, layout);
      if (!ref) return null;
      const files = layout.files(ref.session);
      const shown = await paneState(ref.session);
      const sink = (data: string) => request.onStdout(data);
      if (!shown) {
        // No session: only an exit status written before it went makes this a real end. Its
        // cgroup, when the record names the one made for it, is removed either way.
        const exit = await host.run(`cat ${quoteWord(files.exit)} 2>/dev/null`);
        const held = await adopt(ref.session, ref.cgroup, undefined);
        if (parseExitFile(exit.stdout))
          return pane(ref.session, ref.marker, undefined, ref.offset, sink, held);
        if (held.cgroup !== undefined) await removeRemoteCgroup(host.run, held.cgroup);
        return null;
      }
      if (shown.marker !== ref.marker) return null;
      const pid = shown.dead ? undefined : shown.pid;
      return pane(ref.session, ref.marker, pid, ref.offset, sink, await adopt(ref.session, ref.cgroup, pid));
    },
    async listSessions() {
      const out = await server.list(['list-sessions', '-F', '#{session_name}']);
      return out.split('\n').filter((line) => line !== '');
    },
    async killServer() {
      // A listing that failed throws here: nothing is released, killed or deleted on a guess.
      const out = await server.list([
        'list-panes',
        '-a',
        '-F',
        '#{session_name} #{pane_dead} #{pane_pid} #{@procmux_marker} #{@procmux_cgroup}',
      ]);
      for (const handle of live.values()) handle.release();
      live.clear();
      const panes = out.split('\n').filter((line) => line !== '');
      // One at a time: every call shares the connection's one shell.
      for (const line of panes) {
        const [name = '', dead, pid, marker, ...words] = line.split(' ');
        const dirs = words.filter((dir) => dir !== '');
        // Only the cgroup procmux made for that very pane (adoptRefusal there), never another.
        const held = dirs.length > 0 ? await adopt(name, dirs, undefined) : { containment: 'marker' };
        const cgroup = 'cgroup' in held ? held.cgroup : undefined;
        if (dead === '0' && Number(pid) > 0 && marker) await host.killTree(Number(pid), marker, cgroup);
        else if (cgroup !== undefined) await removeRemoteCgroup(host.run, cgroup);
      }
      await server.run(['kill-server']);
      await host.run(`rm -f -- ${quoteWord(layout.sessions)}/*`);
    },
    async dispose() {
      for (const handle of live.values()) handle.release();
      live.clear();
    },
  };
}
