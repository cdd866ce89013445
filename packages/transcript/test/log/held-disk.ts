// A spill file system whose asynchronous writes wait until the test releases them, one by one:
// what a held write carries is readable only from memory. Releasing one resolves once the log
// has heard that write complete (and queued the next).
import { nodeSpillFileSystem, type SpillFileSystem } from '../../src/log/spill-file.js';

export function heldDisk(): { fs: SpillFileSystem; held: (() => Promise<void>)[] } {
  const held: (() => Promise<void>)[] = [];
  const fs: SpillFileSystem = {
    ...nodeSpillFileSystem,
    // Every block goes through the queue, as on a disk whose writes may block.
    inline: false,
    writeAsync(fd, buffers, position, done) {
      const copies = buffers.map((b) => Buffer.from(b));
      held.push(
        () =>
          new Promise<void>((resolve) =>
            nodeSpillFileSystem.writeAsync(fd, copies, position, (error, written) => {
              done(error, written);
              resolve();
            }),
          ),
      );
    },
  };
  return { fs, held };
}
