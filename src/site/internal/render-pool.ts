import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RenderedBody } from './render-markdown.ts';
import type { RenderJob, RenderReply } from './render-worker.ts';

/** A rendering, or why there is none. */
export type RenderOutcome =
  | { readonly ok: true; readonly rendered: RenderedBody }
  | {
      readonly ok: false;
      /**
       * `too-costly`: past the time limit or the worker's memory; `busy`: too many
       * waiting; `failed`: anything else.
       */
      readonly reason: 'too-costly' | 'busy' | 'failed';
      readonly message: string;
    };

export interface RenderPoolOptions {
  /** Time one rendering may take once a worker has it. */
  readonly timeoutMs: number;
  /** Default: one less than the cores, from 2 to 4. */
  readonly workers?: number;
  /** Renderings waiting for a worker before more are refused as `busy` (default 256). */
  readonly maxQueue?: number;
}

/**
 * Renderings started in this process, and requests that joined one already under way, for
 * tests that prove the cache and the sharing work.
 */
export const renderCounter = { started: 0, joined: 0 };

/** A worker's heap: `marked` on the largest document served needs far less. */
const WORKER_HEAP_MB = 512;

// Beside this module: `.ts` when run from source, `.js` once built.
const WORKER_URL = new URL(
  `./render-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

interface Waiting {
  readonly markdown: string;
  readonly resolve: (outcome: RenderOutcome) => void;
}

interface Running {
  readonly id: number;
  readonly resolve: (outcome: RenderOutcome) => void;
  timer: ReturnType<typeof setTimeout> | null;
}

interface Slot {
  worker: Worker | null;
  /** Resolves once the worker has loaded (its start-up does not count against a job's time). */
  online: Promise<void>;
  job: Running | null;
}

/**
 * Markdown rendering off the main thread: a few `worker_threads` workers, started when
 * first needed, each rendering one document at a time under a time limit. A worker past
 * the limit is terminated (a synchronous `marked` call cannot be interrupted any other
 * way) and replaced on demand; its job gets `timeout`. Idle workers do not keep the
 * process alive.
 */
export class RenderPool {
  readonly #slots: Slot[];
  readonly #queue: Waiting[] = [];
  readonly #timeoutMs: number;
  readonly #maxQueue: number;
  #nextId = 0;
  #closed = false;

  constructor(options: RenderPoolOptions) {
    this.#timeoutMs = options.timeoutMs;
    this.#maxQueue = options.maxQueue ?? 256;
    const workers = options.workers ?? Math.min(4, Math.max(2, availableParallelism() - 1));
    this.#slots = Array.from({ length: workers }, () => ({
      worker: null,
      online: Promise.resolve(),
      job: null,
    }));
  }

  /** Renders `markdown` in a worker. Never rejects. */
  render(markdown: string): Promise<RenderOutcome> {
    if (this.#closed) return Promise.resolve(failed('the site handler is closed'));
    if (this.#queue.length >= this.#maxQueue) {
      return Promise.resolve({
        ok: false,
        reason: 'busy',
        message: 'too many pages are waiting to be rendered',
      });
    }
    return new Promise((resolve) => {
      this.#queue.push({ markdown, resolve });
      this.#pump();
    });
  }

  /** Terminates every worker; waiting and running renderings fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiting of this.#queue.splice(0))
      waiting.resolve(failed('the site handler is closed'));
    const stopping: Promise<number>[] = [];
    for (const slot of this.#slots) {
      this.#finish(slot, failed('the site handler is closed'));
      if (slot.worker !== null) stopping.push(slot.worker.terminate());
      slot.worker = null;
    }
    await Promise.allSettled(stopping);
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (slot.job !== null) continue;
      const next = this.#queue.shift();
      if (next === undefined) return;
      this.#start(slot, next);
    }
  }

  #start(slot: Slot, waiting: Waiting): void {
    const worker = slot.worker ?? this.#spawn(slot);
    const job: Running = { id: ++this.#nextId, resolve: waiting.resolve, timer: null };
    slot.job = job;
    renderCounter.started++;
    worker.ref();
    worker.postMessage({ id: job.id, markdown: waiting.markdown } satisfies RenderJob);
    void slot.online.then(() => {
      if (slot.job !== job) return;
      job.timer = setTimeout(() => {
        if (slot.job !== job) return;
        // Detached first, so its exit is not taken for a crash of the next worker.
        slot.worker = null;
        void worker.terminate();
        this.#finish(slot, {
          ok: false,
          reason: 'too-costly',
          message: `rendering took longer than ${this.#timeoutMs} ms`,
        });
      }, this.#timeoutMs);
    });
  }

  #spawn(slot: Slot): Worker {
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    slot.worker = worker;
    let ready = (): void => {};
    slot.online = new Promise((resolve) => {
      ready = resolve;
      worker.once('exit', () => resolve());
    });
    worker.on('message', (reply: RenderReply) => {
      if ('ready' in reply) {
        ready();
        return;
      }
      if (slot.worker !== worker || slot.job?.id !== reply.id) return;
      this.#finish(slot, reply.ok ? { ok: true, rendered: reply.rendered } : failed(reply.message));
    });
    const lost = (outcome: RenderOutcome): void => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      this.#finish(slot, outcome);
    };
    worker.on('error', (error) => {
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      lost(
        outOfMemory
          ? {
              ok: false,
              reason: 'too-costly',
              message: `rendering needed more than ${WORKER_HEAP_MB} MB`,
            }
          : failed(`the render worker failed: ${error.message}`),
      );
    });
    worker.on('exit', () => lost(failed('the render worker stopped')));
    return worker;
  }

  #finish(slot: Slot, outcome: RenderOutcome): void {
    const job = slot.job;
    if (job === null) return;
    if (job.timer !== null) clearTimeout(job.timer);
    slot.job = null;
    slot.worker?.unref();
    job.resolve(outcome);
    if (!this.#closed) this.#pump();
  }
}

function failed(message: string): RenderOutcome {
  return { ok: false, reason: 'failed', message };
}
