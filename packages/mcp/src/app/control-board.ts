// The control leases the terminal app holds, one per session. The view ties a lease to its
// WebSocket; the app speaks through tool calls, so a lease here lives until the app releases
// it, the session ends, or the app stops calling (it long-polls, so silence means it is gone).
import { ProcmuxError } from '@procmux/core-types';
import type { HumanControlLease, ProcessSession } from '@procmux/sessions';

/** A lease whose app made no call about its session for this long is given back to the model. */
export const LEASE_IDLE_MS = 30_000;

interface Held {
  lease: HumanControlLease;
  viewer: string;
  timer: NodeJS.Timeout;
}

/** The app's leases of one server (one client): taken, renewed, written through, released. */
export class ControlBoard {
  readonly #held = new Map<string, Held>();

  constructor(private readonly idleMs = LEASE_IDLE_MS) {}

  /** The holder name the session (and the view) shows for `viewer`. */
  static holder(viewer: string): string {
    return `mcp app ${viewer}`;
  }

  /** Whether `viewer` holds the keyboard of `session` now. */
  mine(session: ProcessSession, viewer: string): boolean {
    const held = this.#current(session.id);
    return held !== undefined && held.viewer === viewer;
  }

  /** Any call of the viewer about the session keeps its lease alive. */
  renew(session: ProcessSession, viewer: string): void {
    const held = this.#current(session.id);
    if (held?.viewer === viewer) held.timer.refresh();
  }

  async take(session: ProcessSession, viewer: string): Promise<void> {
    if (this.mine(session, viewer)) return;
    const lease = await session.takeControl({ holder: ControlBoard.holder(viewer) });
    // Unref'd: a forgotten lease never keeps the server alive.
    const timer = setTimeout(() => this.release(session.id), this.idleMs).unref();
    this.#held.set(session.id, { lease, viewer, timer });
  }

  async write(session: ProcessSession, viewer: string, data: string): Promise<void> {
    if (!this.mine(session, viewer)) {
      throw new ProcmuxError(
        'ERR_PROCESS_STATE',
        `read-only: take control of session ${session.id} (action take) before typing into it`,
        { details: { sessionId: session.id } },
      );
    }
    await this.#held.get(session.id)!.lease.write(data);
  }

  /** Gives the keyboard back; a no-op when nothing is held. */
  release(sessionId: string, viewer?: string): void {
    const held = this.#held.get(sessionId);
    if (!held || (viewer !== undefined && held.viewer !== viewer)) return;
    clearTimeout(held.timer);
    held.lease.release();
    this.#held.delete(sessionId);
  }

  dispose(): void {
    for (const id of [...this.#held.keys()]) this.release(id);
  }

  /** The live lease of a session (one the session's end released is forgotten here). */
  #current(sessionId: string): Held | undefined {
    const held = this.#held.get(sessionId);
    if (held?.lease.released) this.release(sessionId);
    return held?.lease.released ? undefined : held;
  }
}
