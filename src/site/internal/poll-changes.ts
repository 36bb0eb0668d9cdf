import type { SiteStateKeeper } from './site-state.ts';

/** How often changes are looked for without a request, by revalidation mode. */
const POLL_MS = { watch: 1000, stat: 5000 } as const;

/**
 * Rebuilds the state now and then, so problems are reported and IndexNow submits as files
 * change, not only when a request comes; only while `wanted()` says so. One rebuild at a
 * time; the timer does not keep the process alive.
 */
export function pollChanges(
  keeper: SiteStateKeeper,
  current: () => Promise<unknown>,
  wanted: () => boolean,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      if (!wanted()) {
        schedule();
        return;
      }
      running = current().then(
        () => schedule(),
        () => schedule(),
      );
    }, POLL_MS[keeper.mode]);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await running;
    },
  };
}
