// A pollfd array as poll/ppoll keep it in memory: { int fd; short events (POLLIN); short revents }.

/** The pollfd array that watches `fds` for reading. */
export function pollfds(fds: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(fds.length * 8);
  const view = new DataView(bytes.buffer);
  fds.forEach((fd, i) => {
    view.setInt32(i * 8, fd, true);
    view.setInt16(i * 8 + 4, 1, true);
  });
  return bytes;
}
