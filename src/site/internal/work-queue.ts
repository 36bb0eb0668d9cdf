/**
 * Runs `run` over every task in `queue`, at most `workers` at a time, including tasks that
 * running ones add to the queue meanwhile; resolves once the queue is empty and nothing
 * runs. The first failure rejects, and no further task starts. The queue is taken from its
 * end (last in, first out): on a folder tree that goes depth first, which keeps it short.
 *
 * Bounded on purpose: starting every task of a large tree at once (`Promise.all` over each
 * folder, recursively) holds a pending promise, closure and file-system request per file,
 * hundreds of megabytes at 50,000 files, where a fixed number of workers holds a few.
 */
export function drainQueue<T>(
  queue: T[],
  workers: number,
  run: (task: T) => Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let active = 0;
    let failed = false;
    const pump = (): void => {
      while (!failed && active < workers && queue.length > 0) {
        const task = queue.pop() as T;
        active++;
        let running: Promise<void>;
        try {
          running = run(task);
        } catch (error) {
          running = Promise.reject(error);
        }
        running.then(
          () => {
            active--;
            pump();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
      if (!failed && active === 0 && queue.length === 0) resolve();
    };
    pump();
  });
}
