/**
 * A test oracle: a deliberately naive, line-by-line port of Google's robots.txt matcher
 * (google/robotstxt robots.cc, `RobotsMatcher::OneAgentAllowedByRobots`). It shares no code
 * with `src/robots` so that a bug there cannot hide itself here; it favours resemblance to
 * the C++ over speed (Matches, like the original, is quadratic with a leading `*`).
 *
 * Everything works on bytes, as the C++ does. To keep the port close to the original's
 * `char*` handling, bytes are held in "binary strings": one UTF-16 code unit per byte
 * (0-255), so `indexOf`, `slice` and `length` mean what they mean on a `std::string`.
 */

/** What Google decided and which line decided it (null when no rule with priority > 0 did). */
export interface GoogleReferenceDecision {
  readonly allowed: boolean;
  readonly directive: 'allow' | 'disallow' | null;
  readonly line: number | null;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
/** `kMaxLineLen - 1`: the line buffer keeps one byte for the terminating NUL. */
const MAX_LINE_BYTES = 2083 * 8 - 1;
const HEX_DIGITS = '0123456789ABCDEF';

/** Whether Google's matcher lets `userAgent` crawl `url` under `robots`. */
export function googleReferenceAllowed(
  robots: Uint8Array | string,
  userAgent: string,
  url: string,
): boolean {
  return googleReferenceDecision(robots, userAgent, url).allowed;
}

/** Google's decision plus the line of the rule that made it. */
export function googleReferenceDecision(
  robots: Uint8Array | string,
  userAgent: string,
  url: string,
): GoogleReferenceDecision {
  return googleReferenceDecide(googleReferenceEvents(robots), userAgent, url);
}

/**
 * The parser's callbacks that RobotsMatcher acts on, in order. Recording them once lets a
 * test ask about many URLs without re-reading a large file; replaying them is what the
 * streaming matcher would have done.
 */
export interface GoogleParseEvent {
  readonly kind: 'user-agent' | 'allow' | 'disallow';
  readonly line: number;
  /** A binary string: allow and disallow values already escaped. */
  readonly value: string;
}

/** `ParseRobotsTxt` with a handler that records what RobotsMatcher would be told. */
export function googleReferenceEvents(robots: Uint8Array | string): GoogleParseEvent[] {
  const events: GoogleParseEvent[] = [];
  parseRobotsTxt(typeof robots === 'string' ? new TextEncoder().encode(robots) : robots, {
    handleUserAgent: (line, value) => events.push({ kind: 'user-agent', line, value }),
    handleAllow: (line, value) => events.push({ kind: 'allow', line, value }),
    handleDisallow: (line, value) => events.push({ kind: 'disallow', line, value }),
  });
  return events;
}

/** `OneAgentAllowedByRobots`, replaying recorded parse events instead of parsing again. */
export function googleReferenceDecide(
  events: readonly GoogleParseEvent[],
  userAgent: string,
  url: string,
): GoogleReferenceDecision {
  // The C++ keeps the path as a `const char*`, so a NUL in the URL ends it.
  const path = cString(googlePathParamsQuery(binary(url)));
  const matcher = new ReferenceMatcher(binary(userAgent), path);
  for (const { kind, line, value } of events) {
    if (kind === 'user-agent') matcher.handleUserAgent(line, value);
    else if (kind === 'allow') matcher.handleAllow(line, value);
    else matcher.handleDisallow(line, value);
  }
  return matcher.decision();
}

/** `GetPathParamsQuery`, on a binary string. */
export function googlePathParamsQuery(url: string): string {
  const searchStart = url.length >= 2 && url[0] === '/' && url[1] === '/' ? 2 : 0;
  const earlyPath = findFirstOf(url, '/?;', searchStart);
  let protocolEnd = find(url, '://', searchStart);
  if (earlyPath < protocolEnd) protocolEnd = NPOS;
  protocolEnd = protocolEnd === NPOS ? searchStart : protocolEnd + 3;

  const pathStart = findFirstOf(url, '/?;', protocolEnd);
  if (pathStart !== NPOS) {
    const hashPos = find(url, '#', searchStart);
    if (hashPos < pathStart) return '/';
    const pathEnd = hashPos === NPOS ? url.length : hashPos;
    if (url[pathStart] !== '/') return `/${url.slice(pathStart, pathEnd)}`;
    return url.slice(pathStart, pathEnd);
  }
  return '/';
}

/** `MaybeEscapePattern`, on a binary string. */
export function googleEscapePattern(src: string): string {
  let dst = '';
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (src[i] === '%' && isXDigit(src[i + 1]) && isXDigit(src[i + 2])) {
      dst += `%${asciiUpper(src[i + 1] ?? '')}${asciiUpper(src[i + 2] ?? '')}`;
      i += 2;
    } else if (c & 0x80) {
      dst += `%${HEX_DIGITS[(c >> 4) & 0xf]}${HEX_DIGITS[c & 0xf]}`;
    } else {
      dst += src[i];
    }
  }
  return dst;
}

/** `RobotsMatchStrategy::Matches`: the pos-array matcher, '$' special only at the end. */
function googleMatches(path: string, pattern: string): boolean {
  const pathlen = path.length;
  let pos: number[] = [0];
  for (let p = 0; p < pattern.length; p++) {
    const ch = pattern[p];
    if (ch === '$' && p + 1 === pattern.length) return pos[pos.length - 1] === pathlen;
    if (ch === '*') {
      const first = pos[0] ?? 0;
      pos = [];
      for (let i = first; i <= pathlen; i++) pos.push(i);
    } else {
      const next: number[] = [];
      for (const at of pos) {
        if (at < pathlen && path[at] === ch) next.push(at + 1);
      }
      pos = next;
      if (pos.length === 0) return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// RobotsTxtParser

type KeyType = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown';

interface ParseHandler {
  handleUserAgent(line: number, value: string): void;
  handleAllow(line: number, value: string): void;
  handleDisallow(line: number, value: string): void;
}

function parseRobotsTxt(body: Uint8Array, handler: ParseHandler): void {
  // The C++ copies each byte into a line buffer; every byte that is not a line end (or a
  // skipped BOM byte, all of which come first) is copied, so the buffer always holds
  // body[lineStart, lineStart + lineLength) and a slice of the body stands in for it.
  let lineStart = 0;
  let lineLength = 0;
  let lineNum = 0;
  let bomPos = 0;
  let lastWasCarriageReturn = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    // Only a prefix of the BOM at the very start is skipped; bomPos moves on either way.
    if (bomPos < UTF8_BOM.length && ch === UTF8_BOM[bomPos++]) {
      lineStart = i + 1;
      continue;
    }
    bomPos = UTF8_BOM.length;
    if (ch !== 0x0a && ch !== 0x0d) {
      if (lineLength < MAX_LINE_BYTES) lineLength++;
    } else {
      const isCrlfContinuation = lineLength === 0 && lastWasCarriageReturn && ch === 0x0a;
      if (!isCrlfContinuation) {
        parseAndEmitLine(++lineNum, binaryOfBytes(body, lineStart, lineLength), handler);
      }
      lineStart = i + 1;
      lineLength = 0;
      lastWasCarriageReturn = ch === 0x0d;
    }
  }
  parseAndEmitLine(++lineNum, binaryOfBytes(body, lineStart, lineLength), handler);
}

function parseAndEmitLine(lineNum: number, rawLine: string, handler: ParseHandler): void {
  const keyValue = getKeyAndValueFrom(cString(rawLine));
  if (keyValue === null) return;
  const type = parseKey(keyValue.key);
  // User-agent and sitemap values are passed on unescaped; everything else is escaped.
  const value =
    type === 'user-agent' || type === 'sitemap'
      ? keyValue.value
      : googleEscapePattern(keyValue.value);
  switch (type) {
    case 'user-agent':
      handler.handleUserAgent(lineNum, value);
      return;
    case 'allow':
      handler.handleAllow(lineNum, value);
      return;
    case 'disallow':
      handler.handleDisallow(lineNum, value);
      return;
    default:
      // HandleSitemap and HandleUnknownAction are empty in RobotsMatcher.
      return;
  }
}

function getKeyAndValueFrom(input: string): { key: string; value: string } | null {
  let line = input;
  const comment = line.indexOf('#');
  if (comment >= 0) line = line.slice(0, comment);
  line = stripAsciiWhitespace(line);

  let sep = line.indexOf(':');
  if (sep < 0) {
    // Google-specific: whitespace stands in for a forgotten colon, but only between
    // exactly two words.
    const white = findFirstOf(line, ' \t', 0);
    if (white === NPOS) return null;
    let val = white;
    while (val < line.length && (line[val] === ' ' || line[val] === '\t')) val++;
    if (findFirstOf(line, ' \t', val) !== NPOS) return null;
    sep = white;
  }

  const key = stripAsciiWhitespace(line.slice(0, sep));
  if (key.length === 0) return null;
  return { key, value: stripAsciiWhitespace(line.slice(sep + 1)) };
}

function parseKey(key: string): KeyType {
  if (startsWithIgnoreCase(key, 'user-agent', 'useragent', 'user agent')) return 'user-agent';
  if (startsWithIgnoreCase(key, 'allow')) return 'allow';
  if (
    startsWithIgnoreCase(
      key,
      'disallow',
      'dissallow',
      'dissalow',
      'disalow',
      'diasllow',
      'disallaw',
    )
  ) {
    return 'disallow';
  }
  if (startsWithIgnoreCase(key, 'sitemap', 'site-map')) return 'sitemap';
  return 'unknown';
}

// ---------------------------------------------------------------------------------------
// RobotsMatcher

interface Match {
  priority: number;
  line: number;
}

class ReferenceMatcher implements ParseHandler {
  readonly #userAgent: string;
  readonly #path: string;
  readonly #allow = { global: noMatch(), specific: noMatch() };
  readonly #disallow = { global: noMatch(), specific: noMatch() };
  #seenGlobalAgent = false;
  #seenSpecificAgent = false;
  #everSeenSpecificAgent = false;
  #seenSeparator = false;

  constructor(userAgent: string, path: string) {
    this.#userAgent = userAgent;
    this.#path = path;
  }

  handleUserAgent(_line: number, value: string): void {
    if (this.#seenSeparator) {
      this.#seenSpecificAgent = false;
      this.#seenGlobalAgent = false;
      this.#seenSeparator = false;
    }
    // Google-specific: '*' followed by whitespace and more is still the global agent.
    if (value.length >= 1 && value[0] === '*' && (value.length === 1 || isCSpace(value[1]))) {
      this.#seenGlobalAgent = true;
    } else if (equalsIgnoreCase(extractUserAgent(value), this.#userAgent)) {
      this.#everSeenSpecificAgent = true;
      this.#seenSpecificAgent = true;
    }
  }

  handleAllow(line: number, value: string): void {
    if (!this.#seenAnyAgent()) return;
    this.#seenSeparator = true;
    const priority = googleMatches(this.#path, value) ? value.length : -1;
    if (priority >= 0) {
      this.#record(this.#allow, priority, line);
      return;
    }
    // Google-specific: 'index.htm' and 'index.html' stand for the directory itself.
    const slashPos = value.lastIndexOf('/');
    if (slashPos >= 0 && value.slice(slashPos).startsWith('/index.htm')) {
      this.handleAllow(line, `${value.slice(0, slashPos + 1)}$`);
    }
  }

  handleDisallow(line: number, value: string): void {
    if (!this.#seenAnyAgent()) return;
    this.#seenSeparator = true;
    const priority = googleMatches(this.#path, value) ? value.length : -1;
    if (priority >= 0) this.#record(this.#disallow, priority, line);
  }

  decision(): GoogleReferenceDecision {
    const allow = this.#allow;
    const disallow = this.#disallow;
    if (allow.specific.priority > 0 || disallow.specific.priority > 0) {
      return decide(allow.specific, disallow.specific);
    }
    if (this.#everSeenSpecificAgent) return { allowed: true, directive: null, line: null };
    if (allow.global.priority > 0 || disallow.global.priority > 0) {
      return decide(allow.global, disallow.global);
    }
    return { allowed: true, directive: null, line: null };
  }

  #seenAnyAgent(): boolean {
    return this.#seenGlobalAgent || this.#seenSpecificAgent;
  }

  #record(slot: { global: Match; specific: Match }, priority: number, line: number): void {
    const match = this.#seenSpecificAgent ? slot.specific : slot.global;
    // Strictly greater: the first line to reach a priority keeps it.
    if (match.priority < priority) {
      match.priority = priority;
      match.line = line;
    }
  }
}

function decide(allow: Match, disallow: Match): GoogleReferenceDecision {
  // A tie goes to allow.
  return disallow.priority > allow.priority
    ? { allowed: false, directive: 'disallow', line: disallow.line }
    : { allowed: true, directive: 'allow', line: allow.line };
}

function noMatch(): Match {
  return { priority: -1, line: 0 };
}

/** `ExtractUserAgent`: the longest prefix of `[A-Za-z_-]`. */
function extractUserAgent(value: string): string {
  let end = 0;
  while (
    end < value.length &&
    (isAsciiAlpha(value[end]) || value[end] === '-' || value[end] === '_')
  ) {
    end++;
  }
  return value.slice(0, end);
}

// ---------------------------------------------------------------------------------------
// The bits of libc and absl the C++ leans on, on binary strings.

const NPOS = Number.POSITIVE_INFINITY;

function binary(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return binaryOfBytes(bytes, 0, bytes.length);
}

function binaryOfBytes(bytes: Uint8Array, start: number, length: number): string {
  let out = '';
  // In chunks: fromCharCode takes its bytes as arguments, and argument lists are bounded.
  for (let at = start; at < start + length; at += 8192) {
    const chunk = bytes.subarray(at, Math.min(at + 8192, start + length));
    out += String.fromCharCode.apply(null, chunk as unknown as number[]);
  }
  return out;
}

function cString(text: string): string {
  const nul = text.indexOf('\0');
  return nul < 0 ? text : text.slice(0, nul);
}

function find(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  return at < 0 ? NPOS : at;
}

function findFirstOf(text: string, chars: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (chars.includes(text[i] ?? '')) return i;
  }
  return NPOS;
}

/** absl::ascii_isspace: space, \t, \n, \v, \f, \r. */
function isAsciiSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\v' || ch === '\f' || ch === '\r';
}

/** `isspace` in the C locale: the same six characters. */
function isCSpace(ch: string | undefined): boolean {
  return isAsciiSpace(ch);
}

function stripAsciiWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text[start])) start++;
  while (end > start && isAsciiSpace(text[end - 1])) end--;
  return text.slice(start, end);
}

function isAsciiAlpha(ch: string | undefined): boolean {
  return ch !== undefined && /^[A-Za-z]$/.test(ch);
}

function isXDigit(ch: string | undefined): boolean {
  return ch !== undefined && /^[0-9A-Fa-f]$/.test(ch);
}

/** ASCII only: `toUpperCase` would also change Latin-1 bytes such as 0xE9. */
function asciiUpper(ch: string): string {
  return ch >= 'a' && ch <= 'z' ? ch.toUpperCase() : ch;
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
}

function equalsIgnoreCase(a: string, b: string): boolean {
  return a.length === b.length && asciiLower(a) === asciiLower(b);
}

function startsWithIgnoreCase(text: string, ...prefixes: string[]): boolean {
  const lower = asciiLower(text);
  return prefixes.some((prefix) => lower.startsWith(prefix));
}
