/** The part of `process` that {@link interruptSignal} listens to. */
export interface SignalSource {
  once(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  exit(code: number): never;
}

/**
 * A signal that fires on the first Ctrl-C (SIGINT) or SIGTERM, so a long command stops
 * cleanly: requests in flight are cancelled, the crawl state is closed, temporary files
 * are removed, and the command says how to go on. A second one ends the process at once
 * (status 130); `exit` handlers still run, so temporary state is removed even then.
 */
export function interruptSignal(source: SignalSource): AbortSignal {
  const controller = new AbortController();
  const interrupt = (name: string) => () => {
    controller.abort(new Error(`interrupted (${name})`));
    source.once('SIGINT', () => source.exit(130));
    source.once('SIGTERM', () => source.exit(130));
  };
  source.once('SIGINT', interrupt('SIGINT'));
  source.once('SIGTERM', interrupt('SIGTERM'));
  return controller.signal;
}
