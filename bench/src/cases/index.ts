// Every case, in the order the table shows them.
import type { BenchCase } from '../case.js';
import { firstByteCgroup, killTreeCgroup } from './cgroup.js';
import { emulatedPty } from './emulated-pty.js';
import { failoverAdopt } from './failover.js';
import { firstBytePipe, firstBytePty } from './first-byte.js';
import { hostDeathCleanup } from './host-death.js';
import { inputLatency } from './input-latency.js';
import { killTree } from './kill-tree.js';
import { mcpBigOneShot, mcpOneShot50mb, mcpRoundTrip } from './mcp.js';
import { mcpSessionFlood } from './mcp-session.js';
import { oneShotStdin } from './one-shot-stdin.js';
import { outputLog } from './output-log.js';
import { pollWakeup } from './poll-wakeup.js';
import { renderNew } from './render-new.js';
import { rss, rssSpilled } from './rss.js';
import { sandboxFirstByte, sandboxThroughput } from './sandbox.js';
import { sessionsPipeThroughput, sessionsPtyThroughput } from './sessions-throughput.js';
import { sshRoundTrip, sshThroughput } from './ssh.js';
import { tailLoss } from './tail-loss.js';
import { TASK_CASES } from './tasks.js';
import { pipeThroughput, ptyThroughput } from './throughput.js';
import { tmuxFirstByte, tmuxRecovery, tmuxThroughput } from './tmux.js';
import { viewLatency } from './view-latency.js';

export const CASES: readonly BenchCase[] = [
  pipeThroughput,
  ptyThroughput,
  sessionsPipeThroughput,
  sessionsPtyThroughput,
  emulatedPty,
  firstBytePipe,
  firstBytePty,
  pollWakeup,
  killTree,
  killTreeCgroup,
  firstByteCgroup,
  hostDeathCleanup,
  tailLoss,
  rss,
  rssSpilled,
  outputLog,
  renderNew,
  mcpBigOneShot,
  mcpOneShot50mb,
  mcpRoundTrip,
  mcpSessionFlood,
  viewLatency,
  inputLatency,
  oneShotStdin,
  tmuxFirstByte,
  tmuxThroughput,
  tmuxRecovery,
  sshRoundTrip,
  sshThroughput,
  sandboxFirstByte,
  sandboxThroughput,
  failoverAdopt,
  ...TASK_CASES,
];
