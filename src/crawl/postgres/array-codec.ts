// One-dimensional PostgreSQL arrays in text form, for the array types the crawl's statements
// use (see ARRAY_TYPES). postgres.js would learn array types itself, by querying pg_type on
// every new connection, but that query's promise is held by nobody: when the connection is
// lost or the pool ended while it runs (a close right after a connection opened, a server
// restart), it rejects unhandled, and Node ends the process. So the pools turn that fetch off
// and declare the types here. Written by hand because the driver's own codec is not exported
// (and it reads an unquoted NULL element as the text "NULL").

/** An array parameter in PostgreSQL's input form: every element quoted, nulls as NULL. */
export function serializeArray(values: unknown): string {
  if (!Array.isArray(values)) {
    throw new TypeError(`an array parameter must be an array, not ${typeof values}`);
  }
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    if (i > 0) text += ',';
    if (value === null) {
      text += 'NULL';
    } else if (value === undefined || Array.isArray(value)) {
      // Statements take flat arrays with explicit nulls: anything else is a bug upstream.
      throw new TypeError(
        `an array parameter cannot hold ${Array.isArray(value) ? 'an array' : 'undefined'}`,
      );
    } else {
      text += `"${String(value).replace(/[\\"]/g, '\\$&')}"`;
    }
  }
  return `${text}}`;
}

/**
 * A one-dimensional array in PostgreSQL's output form (`{a,"b c",NULL}`, with an optional
 * `[lower:upper]=` prefix), each element through `element`; unquoted NULL is null. Linear in
 * the text; a text not of that form (a nested array included) throws.
 */
export function parseArray<T>(text: string, element: (text: string) => T): (T | null)[] {
  let at = 0;
  if (text.charCodeAt(0) === 0x5b /* [ */) {
    const equals = text.indexOf('=');
    at = equals < 0 ? -1 : equals + 1;
  }
  const end = text.length - 1;
  if (at < 0 || text.charCodeAt(at) !== 0x7b /* { */ || text.charCodeAt(end) !== 0x7d /* } */) {
    throw new SyntaxError(`not a one-dimensional array: ${JSON.stringify(text.slice(0, 40))}`);
  }
  const values: (T | null)[] = [];
  at++;
  if (at === end) return values;
  for (;;) {
    if (text.charCodeAt(at) === 0x22 /* " */) {
      let value = '';
      let from = ++at;
      for (;;) {
        const code = text.charCodeAt(at);
        if (at >= end) throw new SyntaxError('an array element is not closed');
        if (code === 0x22) break;
        if (code === 0x5c /* \ */) {
          value += text.slice(from, at);
          from = ++at;
        }
        at++;
      }
      values.push(element(value + text.slice(from, at)));
      at++;
    } else {
      const comma = text.indexOf(',', at);
      const stop = comma < 0 || comma > end ? end : comma;
      const raw = text.slice(at, stop);
      // PostgreSQL quotes an empty string, and never writes a brace or quote bare.
      if (raw === '' || raw.includes('{') || raw.includes('}') || raw.includes('"')) {
        throw new SyntaxError(`not a flat array element: ${JSON.stringify(raw.slice(0, 40))}`);
      }
      values.push(raw === 'NULL' ? null : element(raw));
      at = stop;
    }
    if (at === end) return values;
    if (text.charCodeAt(at) !== 0x2c /* , */)
      throw new SyntaxError('array elements must be separated by commas');
    at++;
  }
}

const asText = (text: string) => text;
const asNumber = Number;

/** The array types the statements use, as postgres.js's `types` option takes them. */
export const ARRAY_TYPES = {
  textArray: arrayType(1009, asText),
  int4Array: arrayType(1007, asNumber),
  int8Array: arrayType(1016, asNumber),
  float8Array: arrayType(1022, asNumber),
};

function arrayType<T>(oid: number, element: (text: string) => T) {
  return {
    to: oid,
    from: [oid],
    serialize: serializeArray,
    parse: (text: string) => parseArray(text, element),
  };
}
