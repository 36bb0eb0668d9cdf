import type { CrawlerRegistry, KnownCrawler } from '../crawler-registry.ts';

/** A known crawler a user-agent value probably meant. */
export interface SimilarCrawler {
  readonly crawler: KnownCrawler;
  /**
   * True when the two differ only in case, `-`, `_`, spaces, dots and slashes
   * (`Chat-GPT-User`, `ChatGPT User`): surely a misspelling. False for a near spelling
   * (`ClaudBot`): probably one.
   */
  readonly sure: boolean;
}

/** Values longer than this are not compared: nobody misspells a token that long. */
const MAX_LENGTH = 64;

/**
 * The known crawler `value` (a user-agent value, not itself a known token) most likely
 * means, or null. Compared without case and separators, then by edit distance: 1 when
 * both have 7 characters or more, 2 from 12 (shorter ones are too alike to guess). A value
 * that extends a known token with `-` or `_` (`SemrushBot-SA`) is a sibling, not a guess.
 */
export function similarCrawler(registry: CrawlerRegistry, value: string): SimilarCrawler | null {
  const head = value.split('/')[0] ?? '';
  const wanted = squash(head);
  if (wanted.length === 0 || wanted.length > MAX_LENGTH) return null;
  // `SemrushBot-SA`, `Googlebot-Mobile`: a sibling of a known crawler, not a misspelling.
  const lower = head.toLowerCase();
  const sibling = registry.crawlers.some((crawler) => {
    const token = crawler.token.toLowerCase();
    return (
      lower.length > token.length &&
      lower.startsWith(token) &&
      '-_'.includes(lower.charAt(token.length))
    );
  });
  let best: { crawler: KnownCrawler; distance: number } | null = null;
  for (const crawler of registry.crawlers) {
    const known = squash(crawler.token);
    if (known === wanted) return { crawler, sure: true };
    const shorter = Math.min(known.length, wanted.length);
    const limit = shorter >= 12 ? 2 : shorter >= 7 ? 1 : 0;
    if (sibling || limit === 0 || Math.abs(known.length - wanted.length) > limit) continue;
    const distance = editDistance(known, wanted, limit);
    if (distance <= limit && (best === null || distance < best.distance)) {
      best = { crawler, distance };
    }
  }
  return best === null ? null : { crawler: best.crawler, sure: false };
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[-_\s.]/g, '');
}

/** Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}
