/**
 * Response headers as callers have them: a `Headers`, pairs, or a record whose values are a
 * string or a list (Node's `IncomingHttpHeaders`). Names compare case-insensitively.
 */
export type PageHeaders =
  | Headers
  | readonly (readonly [string, string])[]
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Every value of header `name`, in order. A `Headers` already joins repeated headers with
 * ", ", so it yields one value for them.
 */
export function headerValues(headers: PageHeaders | undefined, name: string): string[] {
  if (headers === undefined) return [];
  const wanted = name.toLowerCase();
  // Duck-typed, so a Headers from another copy of undici (another realm) works too.
  if (typeof (headers as Headers).get === 'function' && !Array.isArray(headers)) {
    const value = (headers as Headers).get(wanted);
    return value === null ? [] : [value];
  }
  const out: string[] = [];
  if (Array.isArray(headers)) {
    for (const pair of headers as readonly (readonly [string, string])[]) {
      if (String(pair[0]).toLowerCase() === wanted) out.push(String(pair[1]));
    }
    return out;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== wanted) continue;
    // Node's OutgoingHttpHeaders allow numbers; anything else not a list is read as text.
    const value: unknown = record[key];
    if (Array.isArray(value)) out.push(...value.map(String));
    else if (value !== undefined && value !== null) out.push(String(value));
  }
  return out;
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === '' ? null : type;
}
