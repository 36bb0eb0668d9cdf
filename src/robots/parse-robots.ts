import { PolicyBuilder } from './internal/policy-builder.ts';
import { readRobotsText } from './internal/robots-text.ts';
import { scanLines } from './internal/scan-lines.ts';
import type { RobotsTxt } from './robots-txt.ts';
import type { ParseRobotsOptions } from './types.ts';

/**
 * RFC 9309 section 2.5: crawlers must read at least 500 kibibytes.
 *
 * @example
 * ```ts
 * parseRobots(hugeBody, { maxBytes: 2 * DEFAULT_MAX_ROBOTS_BYTES });
 * ```
 */
export const DEFAULT_MAX_ROBOTS_BYTES = 500 * 1024;

/**
 * Reads a robots.txt. Total: any bytes in, a {@link RobotsTxt} out, never a throw; what
 * looks wrong comes back as `diagnostics`. Bytes are read as Google reads them (BOM skipped,
 * CR/LF/CRLF lines, `#` comments, accepted misspellings such as `disalow`, a space for a
 * missing colon, lines cut at 16,663 bytes); pass bytes rather than a string to keep invalid
 * UTF-8 exactly as served.
 *
 * @example
 * ```ts
 * const robots = parseRobots(await (await fetch(robotsUrl)).bytes(), { url: robotsUrl });
 * robots.isAllowed('https://example.com/page', 'MyBot');
 * robots.sitemaps; // ['https://example.com/sitemap.xml']
 * ```
 */
export function parseRobots(
  input: string | Uint8Array,
  options: ParseRobotsOptions = {},
): RobotsTxt {
  const maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_MAX_ROBOTS_BYTES);
  const builder = new PolicyBuilder(options.url);
  const { text, bytesAsChars, cut } = readRobotsText(input, maxBytes);
  if (cut !== null) {
    // Cut at the last line break inside the limit: half a rule (`Disallow: /pri`) would block
    // far more than its author meant.
    builder.warning(
      1,
      'size-limit',
      `robots.txt is ${cut.size} bytes; only the first ${cut.read} (whole lines within ${maxBytes}) are read`,
    );
  }
  builder.checkDocument(text);
  // An HTML page or a UTF-16 file reports only what it is: its lines matter only if they are
  // directives.
  scanLines(text, bytesAsChars, builder, builder.isNotRobotsText);
  return builder.build();
}
