/**
 * Resolves after the event loop has run at least one poll phase that started after the
 * call. File-system watcher events are delivered in the poll phase, so a change already
 * on disk when this is called has reached its watcher callback when this resolves.
 *
 * One `setImmediate` is not enough: called from inside a poll-phase callback, its check
 * phase follows at once, before the kernel's newest events are read. The second turn
 * starts a new loop iteration, whose poll phase reads them.
 */
export function eventLoopBarrier(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(() => setImmediate(resolve));
  });
}
