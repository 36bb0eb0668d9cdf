// A render worker of the site handler: Markdown in, a RenderedBody out, one job at a time.
// Its own thread, so a document that takes `marked` seconds never stalls robots.txt or the
// sitemaps; the pool terminates it when a job runs past its time limit.
import { parentPort } from 'node:worker_threads';
import { renderMarkdownBody } from './render-markdown.ts';

/** What the pool sends. */
export interface RenderJob {
  readonly id: number;
  readonly markdown: string;
}

/** What the worker says: `ready` once, when its modules are loaded; then one reply per job. */
export type RenderReply =
  | { readonly ready: true }
  | {
      readonly id: number;
      readonly ok: true;
      readonly rendered: ReturnType<typeof renderMarkdownBody>;
    }
  | { readonly id: number; readonly ok: false; readonly message: string };

// Module loading (marked) is start-up, not a job's time: the pool starts the clock after this.
parentPort?.postMessage({ ready: true } satisfies RenderReply);

parentPort?.on('message', (job: RenderJob) => {
  let reply: RenderReply;
  try {
    reply = { id: job.id, ok: true, rendered: renderMarkdownBody(job.markdown) };
  } catch (error) {
    reply = { id: job.id, ok: false, message: (error as Error).message };
  }
  parentPort?.postMessage(reply);
});
