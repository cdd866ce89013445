export { MAX_SECRET_BYTES, type SecretRequest, type SecretTicket } from './secret-page.js';
export { serveView } from './serve-view.js';
export { MAX_BUFFERED_BYTES } from './session-channel.js';
export type { ViewOptions, ViewServer, ViewSession, ViewSessionRow, ViewSessions } from './types.js';
