import { utf8Length } from '../../shared/xml/xml-escape.ts';
import { type ChunkSource, chunkedResponse, textResponse } from './chunked-body.ts';

/**
 * One of the site handler's answers before it is a `Response`: what `toNodeListener`
 * writes without making one (see {@link answerResponse} for the `Response` it stands for).
 */
export interface Answer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  /** The body as text (sent as UTF-8), or null: see `chunks`. */
  readonly text: string | null;
  /** The body chunk by chunk, or null; neither: no body. */
  readonly chunks: ChunkSource | null;
}

/**
 * Whether `answer` is a `Response`, told without reading the global `Response`: in Node that
 * global is a lazy property whose first read loads the bundled undici (about 12 MB of resident
 * memory), which a server answering robots.txt and sitemaps through `toNodeListener` never
 * needs otherwise. A `Response`'s `text` is a method; an {@link Answer}'s is a string or null.
 */
export function isResponse(answer: Answer | Response): answer is Response {
  return typeof answer.text === 'function';
}

/** The `Response` an answer stands for (a `Response` is its own). */
export function answerResponse(answer: Answer | Response): Response {
  if (isResponse(answer)) return answer;
  const init = { status: answer.status, headers: answer.headers };
  return answer.chunks === null
    ? textResponse(answer.text, init)
    : chunkedResponse(answer.chunks, init);
}

/** A short plain-text answer (an error or a refusal), with its length; no body for HEAD. */
export function plainAnswer(status: number, text: string, head: boolean): Answer {
  return {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(utf8Length(text)),
      // As plainResponse: a refusal or an error is no answer to keep.
      'cache-control': 'no-cache',
    },
    text: head ? null : text,
    chunks: null,
  };
}
