/**
 * Push what changed: tell search engines, through the IndexNow protocol, which URLs of a
 * site were added, updated or deleted. One POST to the shared endpoint reaches every
 * participating engine; URLs go in batches of up to 10,000, 429 and `Retry-After` are
 * honoured, and each answer comes back with its documented meaning.
 *
 * @example
 * ```ts
 * import { submitIndexNow } from 'waymark/indexnow';
 * const report = await submitIndexNow({
 *   host: 'www.example.com',
 *   key: '73134416ae45434d98edc086e0bf6740',
 *   urls: ['https://www.example.com/new-page'],
 * });
 * report.batches[0]?.meaning; // 'OK: URL submitted successfully'
 * ```
 *
 * @module
 */
export { isValidIndexNowKey } from './indexnow-key.ts';
export type { IndexNowPlan } from './plan-submission.ts';
export { INDEXNOW_MAX_URLS_PER_REQUEST, planIndexNowSubmission } from './plan-submission.ts';
export { indexNowStatusMeaning } from './status-meaning.ts';
export { INDEXNOW_DEFAULT_ENDPOINT, submitIndexNow } from './submit-indexnow.ts';
export type {
  IndexNowBatchResult,
  IndexNowOutcome,
  IndexNowRefusedUrl,
  IndexNowReport,
  IndexNowSleep,
  IndexNowSubmission,
} from './types.ts';
