import type { ScreenLike, TerminalScreen } from '@procmux/screen';

/**
 * The screen as the supervisor sees it, with a switch: a run that fell back to pipes must not
 * reach the terminal emulator (bare line feeds would stair-step, stderr would mix in), so the
 * session shuts the gate the moment it learns the run is on pipes, then drops the screen.
 */
export interface ScreenGate {
  readonly screen: ScreenLike;
  close(): void;
}

export function screenGate(screen: TerminalScreen): ScreenGate {
  let open = true;
  const gated: ScreenLike = {
    feed: (chunk) => {
      if (open) screen.feed(chunk);
    },
    renderFull: () => screen.renderFull(),
    renderNew: () => screen.renderNew(),
    resize: (cols, rows) => {
      if (open) screen.resize(cols, rows);
    },
    get cursor() {
      return screen.cursor;
    },
    get modes() {
      return screen.modes;
    },
    onReply: (cb) => screen.onReply(cb),
    flush: () => (open ? screen.flush() : Promise.resolve()),
    dispose: () => screen.dispose(),
  };
  return {
    screen: gated,
    close: () => {
      open = false;
    },
  };
}
