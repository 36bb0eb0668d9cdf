import { Buffer } from 'node:buffer';

// The rest of a sitemap entry whose URL needs no checks (a plain path, a four-digit year),
// written as bytes: byte for byte what `UrlsetWriter` writes for it, without a string.

/**
 * A path the writer takes as it is: segments of unreserved ASCII (RFC 3986), none `.` or
 * `..`, so `new URL` neither encodes nor resolves anything and XML escapes nothing; short
 * enough for any origin the writer accepts with the placeholder.
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+)+\/?$/;
const MAX_PLAIN_PATH = 1024;
/** Epoch ms of 9999-12-31T23:59:59.999Z: later years are not four digits. */
const LAST_PLAIN_MS = 253_402_300_799_999;

/**
 * Whether the entry's rest can be written directly, byte for byte what `UrlsetWriter`
 * writes for it (held to the writer by `sitemap-lines.test.ts`): a plain path and a
 * lastmod in years 1970-9999, which `toISOString` spells as the writer keeps it.
 */
export function plainRest(canonicalPath: string, lastModified: number): boolean {
  return (
    lastModified >= 0 &&
    lastModified <= LAST_PLAIN_MS &&
    canonicalPath.length <= MAX_PLAIN_PATH &&
    PLAIN_PATH.test(canonicalPath)
  );
}

const LOC_TO_LASTMOD = Buffer.from('</loc><lastmod>', 'latin1');
const LASTMOD_TO_END = Buffer.from('</lastmod></url>\n', 'latin1');
/** A plain rest's bytes besides its path: the two runs of markup and `YYYY-MM-DDTHH:MM:SSZ`. */
export const PLAIN_REST_EXTRA = LOC_TO_LASTMOD.length + 20 + LASTMOD_TO_END.length;

/**
 * Writes `${path}</loc><lastmod>${w3cSeconds(ms)}</lastmod></url>\n` into `out` at `pos`
 * for an entry {@link plainRest} accepts (an ASCII path, a year of four digits), the date
 * from the number without a `Date` or a string; returns the end. Held to that text by
 * `sitemap-lines-plain.test.ts`.
 */
export function writePlainRest(out: Buffer, pos: number, path: string, ms: number): number {
  pos += out.write(path, pos, 'latin1');
  out.set(LOC_TO_LASTMOD, pos);
  pos += LOC_TO_LASTMOD.length;
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  let rest = seconds - days * 86_400;
  // Civil date from days since 1970-01-01 (H. Hinnant's algorithm), for days >= 0.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  pos = digits(out, pos, year, 4);
  out[pos++] = 0x2d; // -
  pos = digits(out, pos, month, 2);
  out[pos++] = 0x2d;
  pos = digits(out, pos, day, 2);
  out[pos++] = 0x54; // T
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  pos = digits(out, pos, hour, 2);
  out[pos++] = 0x3a; // :
  pos = digits(out, pos, minute, 2);
  out[pos++] = 0x3a;
  pos = digits(out, pos, rest - minute * 60, 2);
  out[pos++] = 0x5a; // Z
  out.set(LASTMOD_TO_END, pos);
  return pos + LASTMOD_TO_END.length;
}

/** `value` as `width` decimal digits (zero-padded) at `pos`; returns the end. */
function digits(out: Buffer, pos: number, value: number, width: number): number {
  for (let k = width - 1; k >= 0; k--) {
    out[pos + k] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  }
  return pos + width;
}
