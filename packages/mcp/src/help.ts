import { SESSIONS_LIMIT } from '@procmux/core-types';
import { ENDED_SESSIONS_LIMIT } from '@procmux/sessions';

/** `procmux --help`. */
export function helpText(version: string): string {
  return `procmux ${version}: run real processes for agents

Usage:
  procmux mcp [--cwd DIR] [--max-sessions N] [--max-ended-sessions N] [--allow-pty | --no-pty] [--view [PORT]]
              [--state-dir DIR] [--store URL|FILE] [--lease-ttl SECONDS] [--http [PORT] [--http-host ADDR]]
              [--session-memory SIZE] [--session-pids N] [--session-cpu PERCENT]
              [--ssh USER@HOST[:PORT] --ssh-known-hosts FILE [--ssh-identity FILE]]
              [--sandbox [--sandbox-write PATH]... [--sandbox-allow-domain NAME[:PORT]]...]
      Serve the exec and process tools over MCP on stdin and stdout. Every session is
      killed when the client disconnects or the server gets SIGINT or SIGTERM.
      --cwd DIR          workspace root: commands run inside it (default: the current directory)
      --max-sessions N   most sessions running at once, 1 to ${SESSIONS_LIMIT.hard} (default ${SESSIONS_LIMIT.default})
      --max-ended-sessions N
                         ended sessions kept readable, 1 to ${ENDED_SESSIONS_LIMIT.hard} (default ${ENDED_SESSIONS_LIMIT.default});
                         past it the first to end are pruned first
      --allow-pty        allow terminal sessions (exec mode 'session'); the default
      --no-pty           no terminals: mode 'session' is refused, 'one_shot' and 'daemon' work
      --view [PORT]      also serve a local web page to watch the sessions live and take control
                         of one (port 0 or none: a free port); its URL, with a secret token, is
                         printed on stderr as "procmux view: http://127.0.0.1:PORT/?token=..."
      --view-host ADDR   bind the view to ADDR instead of 127.0.0.1 (exposes it; a warning says so)
      --http [PORT]      serve MCP over Streamable HTTP at /mcp instead of stdio, to several clients
                         at once (port 0 or none: a free port); prints on stderr
                         "procmux mcp http: http://127.0.0.1:PORT/mcp bearer=TOKEN"; every request
                         needs "Authorization: Bearer TOKEN". Sessions die with the server
      --http-host ADDR   bind it to ADDR instead of 127.0.0.1 (exposes it; a warning says so)
      --session-memory SIZE
                         each session's memory limit (256M, 2G); a session over it is killed
                         and the reply says "out of memory" (Linux: a cgroup per session)
      --session-pids N   most processes a session may have alive at once (forks beyond fail)
      --session-cpu PERCENT
                         each session's CPU share, as a percentage of one CPU (200: two CPUs)
      --state-dir DIR    where session records and persisted sessions live, outside the workspace
                         (default: $XDG_STATE_HOME/procmux/<workspace hash>, else ~/.local/state/procmux/...);
                         exec persist: true sessions (tmux) keep running across restarts
      --store URL|FILE   where session records and leases live: postgres://... for a store
                         several hosts share, or the path of an SQLite file (default:
                         state.sqlite in the state directory)
      --lease-ttl SECONDS
                         how long a session's lease lasts unless its host renews it, 1 to 300
                         (default 15)
      --ssh USER@HOST[:PORT]
                         run every session on that host over SSH; --cwd is then an absolute
                         path there. Keys from --ssh-identity or the agent (SSH_AUTH_SOCK);
                         never a password
      --ssh-identity FILE
                         private key to log in with
      --ssh-known-hosts FILE
                         known_hosts file that must list the host's key (required with --ssh)
      --sandbox          run every session in an OS sandbox (Linux, bubblewrap): write only the
                         workspace and a private temp dir, secrets (~/.ssh, ~/.aws, ...) and the
                         state dir hidden, no network but the allowed domains, own pid namespace;
                         refusals end the reply ("sandbox: write to /etc/hosts refused")
      --sandbox-write PATH
                         also writable in the sandbox (repeatable)
      --sandbox-allow-domain NAME[:PORT]
                         reachable from the sandbox through its HTTP proxy (repeatable)
  procmux sessions prune [--cwd DIR] [--state-dir DIR]
      End every persisted session of the workspace and forget its records.
  procmux sessions prune --gone
      Remove every state dir (under $XDG_STATE_HOME/procmux or ~/.local/state/procmux)
      whose workspace no longer exists, ending its persisted sessions; prints each one.
  procmux demo
      Run the tools as a model would, printing every call and the text it reads back.
  procmux --help | -h
  procmux --version | -v

Add it to an MCP host (Claude Desktop, Cursor, ...):
  { "mcpServers": { "procmux": { "command": "npx", "args": ["-y", "@procmux/mcp", "mcp", "--cwd", "/path/to/project"] } } }
`;
}
