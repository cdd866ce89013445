export { createTmuxBackend, type TmuxBackend, type TmuxBackendOptions } from './backend.js';
export type { TmuxRef } from './layout.js';
export { locateTmux, MIN_TMUX_VERSION, parseTmuxVersion, type TmuxBinary } from './tmux-cli.js';
