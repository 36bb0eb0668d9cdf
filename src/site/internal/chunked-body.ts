import { Buffer } from 'node:buffer';
import type { TakeBuffer } from './sitemap-chunks.ts';

/** A response body made chunk by chunk, each into a buffer its consumer gives. */
export interface ChunkSource {
  /** The next chunk (a view of a buffer `take` gave); null once the body is complete. */
  next(take: TakeBuffer): Uint8Array | null;
}

/** Responses whose body is a {@link ChunkSource} no one has read from yet. */
const sources = new WeakMap<Response, ChunkSource>();

/**
 * A `Response` streaming `source`: any consumer reads it as a Web stream of fresh
 * buffers; {@link toNodeListener} recognises it and writes the chunks from a pool of
 * buffers it reuses once the socket has taken them. The same bytes either way.
 */
export function chunkedResponse(source: ChunkSource, init: ResponseInit): Response {
  let claimed = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        claimed = true;
        const chunk = source.next((size) => Buffer.allocUnsafe(size));
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
    },
    // Nothing is made before the first read: the fast path may still take the source.
    { highWaterMark: 0 },
  );
  const response = new Response(stream, init);
  sources.set(response, {
    next: (take) => {
      if (claimed) throw new Error('the body is already being read as a stream');
      return source.next(take);
    },
  });
  return response;
}

/**
 * The source of a response made by {@link chunkedResponse} whose body no one has started
 * to read (else null: read it as a stream). Taking it locks the Web stream, so the body is
 * read one way only.
 */
export function takeChunkSource(response: Response): ChunkSource | null {
  const source = sources.get(response);
  const body = response.body;
  if (source === undefined || body === null || response.bodyUsed || body.locked) return null;
  sources.delete(response);
  body.getReader();
  return source;
}

/** Responses whose body is a string no one has read yet: the string itself. */
const texts = new WeakMap<Response, string>();

/**
 * A `Response` with a text body (none for null) that any consumer reads as usual;
 * {@link toNodeListener} recognises it and writes the string with one `end`, without
 * reading the Web stream the `Response` holds. The same bytes either way (UTF-8).
 */
export function textResponse(text: string | null, init: ResponseInit): Response {
  const response = new Response(text, init);
  if (text !== null) texts.set(response, text);
  return response;
}

/**
 * The text of a response made by {@link textResponse} whose body no one has started to
 * read (else null: read it as a stream).
 */
export function takeText(response: Response): string | null {
  const text = texts.get(response);
  if (text === undefined) return null;
  texts.delete(response);
  const body = response.body;
  return body === null || response.bodyUsed || body.locked ? null : text;
}
