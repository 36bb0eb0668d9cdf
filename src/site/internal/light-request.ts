import type { Answer } from './answer.ts';

/** What the site handler reads of a request's headers: `Headers.get`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * What the site handler reads of a request: its URL, method and headers. A `Request` is
 * one; {@link toNodeListener} makes a lighter one from Node's request for a GET or HEAD.
 */
export interface LightRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: HeaderReader;
}

/**
 * The site handler's entry for a {@link LightRequest}, found on the handler under this
 * key: it answers as the handler answers the equivalent `Request`, or gives null for a
 * request it wants as a real `Request` (a document, whose answer may stream a file and
 * follow the request's signal).
 */
export const RESPOND_LIGHT: unique symbol = Symbol('waymark.site.respondLight');

export type RespondLight = (request: LightRequest) => Promise<Answer | Response | null>;

/**
 * Node's raw header list read as `Headers` reads it: names without regard to case, each
 * value with leading and trailing HTTP whitespace removed, a value `Headers` would refuse
 * (NUL, CR or LF inside) left out, as `toNodeListener` leaves it out of a `Request`, and
 * several values of one name joined by `, ` in order.
 */
export class RawHeaders implements HeaderReader {
  readonly #raw: readonly string[];

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    name = name.toLowerCase();
    const raw = this.#raw;
    let found: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i] as string;
      if (key.length !== name.length || key.toLowerCase() !== name) continue;
      const value = normalizedValue(raw[i + 1] as string);
      if (value === null) continue;
      found = found === null ? value : `${found}, ${value}`;
    }
    return found;
  }
}

/** The value as `Headers.append` keeps it, or null where it throws. */
function normalizedValue(value: string): string | null {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  const kept = start === 0 && end === value.length ? value : value.slice(start, end);
  for (let i = 0; i < kept.length; i++) {
    const code = kept.charCodeAt(i);
    if (code === 0 || code === 0x0a || code === 0x0d) return null;
  }
  return kept;
}

function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
