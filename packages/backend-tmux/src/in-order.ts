// What reaches a pane goes in call order: input and resizes are separate tmux clients (an SSH
// exec each for a remote pane), and two of them in flight finish in any order. A resize then
// an Enter must reach the program in that order, as they would on a terminal of its own: else
// the program answers the Enter at the old size, and nothing tells it to look again.

/** Runs tasks one after another in call order; a failed task fails its caller only. */
export class InOrder {
  #tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(task);
    this.#tail = next.then(
      () => {},
      () => {},
    );
    return next;
  }
}
