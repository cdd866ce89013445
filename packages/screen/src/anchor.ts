import type { IMarker, Terminal } from '@xterm/headless';

/**
 * The row of the normal buffer where the next renderNew() starts reading: the top of the screen
 * at the previous render. An xterm.js marker follows that row as lines scroll into the
 * scrollback, as the scrollback is trimmed at its cap or cleared (`ESC[3J`), and as the buffer
 * reflows on resize, so renderNew() reads only what is new plus one screen, however long the
 * scrollback is.
 */
export class HistoryAnchor {
  private marker: IMarker | undefined;
  // xterm.js places markers only while the normal buffer is active. While the alternate screen
  // is, the normal buffer is frozen, so the anchor is kept as rows past the marker and turned
  // into a marker when the normal buffer comes back.
  private skip = 0;
  // Rows between the marker and the anchored row, when the anchored row was about to be erased
  // (see keepAbove).
  private below = 0;

  constructor(private readonly terminal: Terminal) {
    this.place(0);
  }

  /** The anchored row; 0 when it was trimmed away or the terminal reset (all that is left is new). */
  row(): number {
    const line = this.marker?.line ?? -1;
    return line < 0 ? this.skip : line + this.skip + this.below;
  }

  /** The row the marker itself is on (-1 when it is gone). */
  markedRow(): number {
    return this.marker?.line ?? -1;
  }

  /**
   * Call before the rows from `top` down are erased: xterm.js drops the markers on erased rows,
   * so an anchored row there is kept as a distance below the row above them.
   */
  keepAbove(top: number): void {
    const line = this.marker?.line ?? -1;
    if (line < top || top === 0 || this.terminal.buffer.active.type !== 'normal') return;
    const row = this.row();
    this.place(top - 1);
    this.below = row - (top - 1);
  }

  /**
   * Whether the anchored row is gone: trimmed off the scrollback's top, or its buffer replaced by
   * a reset. row() then reads from the buffer's start, which is not the row the last render began.
   */
  get lost(): boolean {
    const marker = this.marker;
    return (
      marker === undefined || marker.isDisposed || marker.line < 0 || !this.terminal.markers.includes(marker)
    );
  }

  /** Anchors the next render at `row` of the normal buffer. */
  moveTo(row: number): void {
    if (this.terminal.buffer.active.type === 'normal') this.place(row);
    else {
      this.skip = row - Math.max(this.marker?.line ?? -1, 0);
      this.below = 0;
    }
  }

  /** Call when the normal buffer becomes active: after the alternate screen, or after a reset. */
  normalActivated(): void {
    // A reset (RIS, `ESC c`) replaces the buffers: the marker then belongs to a buffer that is
    // gone, and everything on the new one is new.
    const marker = this.marker;
    if (marker && marker.line >= 0 && !this.terminal.markers.includes(marker)) this.place(0);
    else if (this.skip !== 0) this.place(this.row());
  }

  /** Call after a resize: rows past the marker no longer mean the same lines. */
  resized(): void {
    // Re-reading from the marker repeats some lines; guessing could skip some, which is worse.
    this.skip = 0;
  }

  dispose(): void {
    this.marker?.dispose();
    this.marker = undefined;
  }

  private place(row: number): void {
    this.marker?.dispose();
    const normal = this.terminal.buffer.normal;
    this.marker = this.terminal.registerMarker(row - (normal.baseY + normal.cursorY));
    this.skip = 0;
    this.below = 0;
  }
}
