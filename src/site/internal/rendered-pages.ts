import type { RenderedBody } from './render-markdown.ts';
import { type RenderOutcome, type RenderPool, renderCounter } from './render-pool.ts';

/** Bytes of rendered pages kept. */
const CACHE_BYTES = 32 * 1024 * 1024;

interface Cached {
  readonly outcome: RenderOutcome;
  readonly bytes: number;
}

/**
 * Rendered documents by a key that changes whenever the file does (path, device, inode,
 * size, modification and change times: the file's version), least recently used first
 * out past a byte budget. A failure that would recur for the same bytes (`too-costly`: the
 * time limit, a worker out of memory) is kept as well, so a pathological document costs
 * one rendering per version, not one per request; `busy` and `failed` (a worker that
 * stopped, a closed pool) may pass, and are not kept. Concurrent requests for one key share
 * one rendering.
 */
export class RenderedPages {
  readonly #pool: RenderPool;
  readonly #cache = new Map<string, Cached>();
  readonly #inFlight = new Map<string, Promise<RenderOutcome | null>>();
  #bytes = 0;

  constructor(pool: RenderPool) {
    this.#pool = pool;
  }

  /**
   * The rendering for `key`, from the cache or by rendering what `read` returns (null:
   * the file could not be read, and null is returned). `read` is called at once or never.
   */
  get(key: string, read: () => Promise<string | null>): Promise<RenderOutcome | null> {
    const cached = this.#cache.get(key);
    if (cached !== undefined) {
      // Most recently used last.
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return Promise.resolve(cached.outcome);
    }
    let running = this.#inFlight.get(key);
    if (running === undefined) {
      running = this.#render(key, read).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, running);
    } else renderCounter.joined++;
    return running;
  }

  async #render(key: string, read: () => Promise<string | null>): Promise<RenderOutcome | null> {
    const markdown = await read();
    if (markdown === null) return null;
    const outcome = await this.#pool.render(markdown);
    if (outcome.ok || outcome.reason === 'too-costly') this.#keep(key, outcome);
    return outcome;
  }

  #keep(key: string, outcome: RenderOutcome): void {
    const bytes = outcome.ok ? sizeOf(outcome.rendered) : 256;
    if (bytes > CACHE_BYTES / 4) return;
    this.#cache.set(key, { outcome, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#cache) {
      if (this.#bytes <= CACHE_BYTES) break;
      this.#cache.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }
}

/** Roughly the memory a rendering holds: two bytes a character, plus its link table. */
function sizeOf(rendered: RenderedBody): number {
  let bytes = rendered.body.length * 2 + 64;
  for (const link of rendered.links)
    bytes += (link.href.length + (link.title?.length ?? 0)) * 2 + 64;
  return bytes;
}
