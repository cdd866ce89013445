// The output of a re-attached process on its way to its session. A backend that replays the
// whole history (tmux) hands over again what an earlier host's poll returned: up to that byte
// it feeds the log and the screen as before, then the session marks it delivered, and only
// then does later output flow (held meanwhile), so a poll returns each byte once.
import type { OutputSink } from './attach.js';

type Stream = 'stdout' | 'stderr';

/** Where a re-attached process's output goes once its adapter listens: its two channels. */
export interface OutputTarget {
  readonly stdout: { emit(data: string): void };
  readonly stderr: { emit(data: string): void };
}

export interface ReplaySink {
  /** Where the backend's output goes from attach() on; held until connect(). */
  sink: OutputSink;
  /**
   * Starts delivering to `adapter` (call once its run listens). `atFloor` runs once, when
   * `floor` bytes were delivered (never for 0); later output waits for it.
   */
  connect(adapter: OutputTarget, floor: number, atFloor: () => Promise<void>): void;
  /** The process is gone: if the floor was never reached, what came is all there was. */
  end(): void;
}

export function replaySink(): ReplaySink {
  const held: { stream: Stream; data: string }[] = [];
  let target: { adapter: OutputTarget; atFloor: () => Promise<void> } | undefined;
  /** Bytes still to go before the floor; undefined once it was reached. */
  let left: number | undefined;
  let waiting = false;
  let ended = false;

  const reachFloor = () => {
    left = undefined;
    waiting = true;
    void target!
      .atFloor()
      .catch(() => {})
      .finally(() => {
        waiting = false;
        pump();
      });
  };

  const pump = () => {
    if (!target) return;
    while (!waiting && held.length > 0) {
      const { stream, data } = held.shift()!;
      if (left === undefined) {
        target.adapter[stream].emit(data);
        continue;
      }
      const bytes = Buffer.byteLength(data);
      if (bytes <= left) {
        target.adapter[stream].emit(data);
        left -= bytes;
        if (left === 0) reachFloor();
      } else {
        const [head, tail] = splitAt(data, left);
        if (head !== '') target.adapter[stream].emit(head);
        if (tail !== '') held.unshift({ stream, data: tail });
        reachFloor();
      }
    }
    if (ended && left !== undefined && !waiting && held.length === 0) reachFloor();
  };

  const push = (stream: Stream, data: string) => {
    if (data === '') return;
    held.push({ stream, data });
    pump();
  };

  return {
    sink: { stdout: (data) => push('stdout', data), stderr: (data) => push('stderr', data) },
    connect(adapter, floor, atFloor) {
      // After the run's own first-listener flush (a microtask of its subscription), so each
      // chunk reaches the screen and the log before the floor is acted on.
      setImmediate(() => {
        target = { adapter, atFloor };
        left = floor > 0 ? floor : undefined;
        pump();
      });
    },
    end() {
      ended = true;
      pump();
    },
  };
}

/** `text` cut after `bytes` UTF-8 bytes (moved forward to a character boundary). */
export function splitAt(text: string, bytes: number): [string, string] {
  const buffer = Buffer.from(text, 'utf8');
  let cut = Math.min(Math.max(0, bytes), buffer.length);
  while (cut < buffer.length && (buffer[cut]! & 0xc0) === 0x80) cut += 1;
  const head = buffer.subarray(0, cut).toString('utf8');
  return [head, text.slice(head.length)];
}
