// Nearly every Sitemap line is an http(s) URL already written as the WHATWG URL parser would
// write it; for those, `new URL(value).href === value`, and parsing it (about a microsecond)
// is the costliest thing a parse does for the line. This says so, conservatively, from the
// chars alone: anything it is unsure of goes to `URL.parse`, which stays the only judge.

const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * True only when `value` is an absolute `http:` or `https:` URL that `URL.parse` reads back
 * unchanged (`href === value`): lower-case scheme and host, a host of lower-case letters,
 * digits, `-` and `.` whose last label starts with a letter (so not an IPv4 address) and that
 * has no `xn--` label (no IDNA work), no port or credentials, then a path and query of chars
 * the parser keeps as they are, with no `.` segment and no `%2e` (which the parser resolves).
 */
export function isPlainHttpUrl(value: string): boolean {
  let i: number;
  if (value.startsWith('https://')) i = 8;
  else if (value.startsWith('http://')) i = 7;
  else return false;
  const hostStart = i;
  let labelStart = i;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === SLASH) break;
    if (c === DOT) {
      if (i === labelStart) return false;
      labelStart = i + 1;
    } else if (!isLowerAlnum(c) && c !== 0x2d) return false;
  }
  if (i === value.length || i === hostStart || labelStart === i) return false;
  if (!isLowerLetter(value.charCodeAt(labelStart))) return false;
  const host = value.slice(hostStart, i);
  if (host.startsWith('xn--') || host.includes('.xn--')) return false;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (isLowerAlnum(c) || (c >= 0x41 && c <= 0x5a)) continue;
    if (!KEPT[c]) return false;
    if (c === SLASH && value.charCodeAt(i + 1) === DOT) return false;
    if (
      c === 0x25 &&
      value.charCodeAt(i + 1) === 0x32 &&
      (value.charCodeAt(i + 2) | 0x20) === 0x65
    ) {
      return false;
    }
  }
  return true;
}

/** ASCII punctuation the parser keeps as is in a special URL's path and query. */
const KEPT: readonly boolean[] = (() => {
  const kept: boolean[] = new Array(128).fill(false);
  for (const c of '-._~!$&()*+,;=:@/%?') kept[c.charCodeAt(0)] = true;
  return kept;
})();

function isLowerLetter(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

function isLowerAlnum(c: number): boolean {
  return isLowerLetter(c) || (c >= 0x30 && c <= 0x39);
}
