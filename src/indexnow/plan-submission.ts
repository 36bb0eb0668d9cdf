import { WaymarkError } from '../shared/waymark-error.ts';
import { isValidIndexNowKey } from './indexnow-key.ts';
import { prepareUrls, submissionScope } from './internal/submission-scope.ts';
import type { IndexNowRefusedUrl, IndexNowSubmission } from './types.ts';

/**
 * Most URLs in one request, as the IndexNow documentation sets it.
 *
 * @example
 * ```ts
 * const requests = Math.ceil(urls.length / INDEXNOW_MAX_URLS_PER_REQUEST);
 * ```
 */
export const INDEXNOW_MAX_URLS_PER_REQUEST = 10_000;

/** What {@link submitIndexNow} would send, from {@link planIndexNowSubmission}. */
export interface IndexNowPlan {
  /** The host as sent: lower case, IDNA (punycode), a default port dropped. */
  readonly host: string;
  /** The key file's URL as sent, when one was given. */
  readonly keyLocation?: string;
  /** The `urlList` of each request, in order: up to 10,000 distinct URLs each. */
  readonly batches: readonly (readonly string[])[];
  /** URLs that will not be sent, and why. */
  readonly refused: readonly IndexNowRefusedUrl[];
  /** Repeated URLs dropped. */
  readonly duplicates: number;
}

/**
 * Checks a submission and splits it into requests, without sending anything: what
 * {@link submitIndexNow} does before its first request, for a dry run or a preview. Throws
 * `invalid-argument` for a key that is not 8 to 128 characters of `a-z A-Z 0-9 -`, a host
 * that is not a bare host name, or a `keyLocation` that is not an http(s) URL on the host.
 * URLs that are not http(s), are on another host or lie outside the key file's folder are
 * listed in `refused`; fragments are dropped, and each distinct URL is kept once.
 *
 * @example
 * ```ts
 * const plan = planIndexNowSubmission({
 *   host: 'www.example.com',
 *   key: '73134416ae45434d98edc086e0bf6740',
 *   urls: ['https://www.example.com/a', 'https://elsewhere.example/b'],
 * });
 * plan.batches; // [['https://www.example.com/a']]
 * plan.refused; // [{ url: 'https://elsewhere.example/b', reason: 'not on the host www.example.com' }]
 * ```
 */
export function planIndexNowSubmission(
  submission: Pick<IndexNowSubmission, 'host' | 'key' | 'keyLocation' | 'urls'>,
): IndexNowPlan {
  if (!isValidIndexNowKey(submission.key)) {
    throw new WaymarkError(
      'invalid-argument',
      'IndexNow key must be 8 to 128 characters of a-z, A-Z, 0-9 and -',
    );
  }
  const scope = submissionScope(submission.host, submission.keyLocation);
  const prepared = prepareUrls(submission.urls, scope);
  const batches: string[][] = [];
  for (let start = 0; start < prepared.urls.length; start += INDEXNOW_MAX_URLS_PER_REQUEST) {
    batches.push(prepared.urls.slice(start, start + INDEXNOW_MAX_URLS_PER_REQUEST));
  }
  return {
    host: scope.host,
    ...(scope.keyLocation === undefined ? {} : { keyLocation: scope.keyLocation }),
    batches,
    refused: prepared.refused,
    duplicates: prepared.duplicates,
  };
}
