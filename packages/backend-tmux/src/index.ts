export { createTmuxBackend, type TmuxBackend } from './backend.js';
export type { TmuxRef } from './layout.js';
export type { TmuxBackendOptions } from './options.js';
export { locateTmux, MIN_TMUX_VERSION, parseTmuxVersion, type TmuxBinary } from './tmux-cli.js';
