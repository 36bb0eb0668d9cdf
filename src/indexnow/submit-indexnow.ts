import type { FetchFunction } from '../http/index.ts';
import { retryAfterMs } from '../http/retry-after.ts';
import { abortableSleep, MAX_TIMEOUT_MS } from '../shared/abortable-sleep.ts';
import { isWaymarkError, WaymarkError } from '../shared/waymark-error.ts';
import { type PostAnswer, type PostOptions, postJson } from './internal/post-json.ts';
import { type IndexNowPlan, planIndexNowSubmission } from './plan-submission.ts';

/** Re-exported here too: callers that import the client alone find the limit beside it. */
export { INDEXNOW_MAX_URLS_PER_REQUEST } from './plan-submission.ts';

import { indexNowStatusMeaning, isAcceptedStatus } from './status-meaning.ts';
import type {
  IndexNowBatchResult,
  IndexNowReport,
  IndexNowSleep,
  IndexNowSubmission,
} from './types.ts';

/**
 * The shared IndexNow endpoint: a submission there reaches every participating search
 * engine (Bing, Yandex, Naver, Seznam.cz, Yep and the others).
 *
 * @example
 * ```ts
 * await submitIndexNow({ endpoint: INDEXNOW_DEFAULT_ENDPOINT, host, key, urls });
 * ```
 */
export const INDEXNOW_DEFAULT_ENDPOINT = 'https://api.indexnow.org/indexnow';

const DEFAULTS = {
  maxRetries: 3,
  retryDelayMs: 1_000,
  maxRetryDelayMs: 60_000,
  timeoutMs: 30_000,
  maxResponseBytes: 64 * 1024,
} as const;

interface Settings {
  readonly endpoint: string;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly post: PostOptions;
  readonly sleep: IndexNowSleep;
  readonly now: () => number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Tells IndexNow that `urls` were added, updated or deleted, as the protocol asks: POSTs of
 * `{ host, key, keyLocation?, urlList }` as `application/json; charset=utf-8`, up to 10,000
 * URLs each, one after another.
 *
 * - A bad key, host, key location or endpoint is the caller's mistake and throws
 *   `invalid-argument` before any request.
 * - A URL that is not http(s), is on another host, or lies outside the key file's folder is
 *   not sent but listed in `refused`; a repeated URL is sent once.
 * - A 429, a 5xx or no answer (network failure, time cap) is retried up to `maxRetries`
 *   times, after the `Retry-After` the endpoint asked for (seconds or an HTTP-date) or else a
 *   back-off that doubles from `retryDelayMs`, never longer than `maxRetryDelayMs`. 400, 403,
 *   422 and any other answer are final.
 * - After an answer that would hold for every batch (403: the key is not valid; 429 or 5xx
 *   after the last retry; no answer), the remaining batches are `not-sent` rather than sent
 *   into the same wall.
 *
 * Each batch's status comes back with its documented meaning. Rejects with the signal's
 * reason when `signal` fires, also during a wait.
 *
 * @example
 * ```ts
 * const report = await submitIndexNow({
 *   host: 'www.example.com',
 *   key: '73134416ae45434d98edc086e0bf6740',
 *   urls: ['https://www.example.com/new-page', 'https://www.example.com/updated-page'],
 * });
 * for (const batch of report.batches) console.log(batch.status, batch.meaning);
 * if (!report.ok) process.exitCode = 1;
 * ```
 */
export async function submitIndexNow(submission: IndexNowSubmission): Promise<IndexNowReport> {
  const plan = planIndexNowSubmission(submission);
  const settings = readSettings(submission);
  submission.signal?.throwIfAborted();
  const batches: IndexNowBatchResult[] = [];
  let stopReason: string | null = null;
  let submitted = 0;
  for (const urlList of plan.batches) {
    const number = batches.length + 1;
    const result: IndexNowBatchResult =
      stopReason === null
        ? await sendBatch(number, urlList, plan, submission.key, settings)
        : notSent(number, urlList.length, stopReason);
    if (result.attempts > 0) submitted += urlList.length;
    if (stopReason === null && stopsTheRest(result)) {
      stopReason = `not sent: batch ${number} ended ${result.status ?? 'without an answer'}`;
    }
    batches.push(result);
    submission.onBatch?.(result);
  }
  return {
    batches,
    submitted,
    refused: plan.refused,
    duplicates: plan.duplicates,
    ok: plan.refused.length === 0 && batches.every((batch) => batch.ok),
  };
}

/** One batch, retried as the endpoint allows. */
async function sendBatch(
  batch: number,
  urlList: readonly string[],
  plan: IndexNowPlan,
  key: string,
  settings: Settings,
): Promise<IndexNowBatchResult> {
  const body = JSON.stringify({
    host: plan.host,
    key,
    ...(plan.keyLocation === undefined ? {} : { keyLocation: plan.keyLocation }),
    urlList,
  });
  for (let attempt = 1; ; attempt++) {
    const answer = await attemptPost(settings, body);
    const retryable = typeof answer === 'string' || answer.status === 429 || answer.status >= 500;
    const result = () => batchResult(batch, urlList.length, answer, attempt);
    if (!retryable || attempt > settings.maxRetries) return result();
    const wait = retryWait(answer, attempt, settings);
    if (typeof wait === 'string') return { ...result(), error: wait };
    await settings.sleep(wait, settings.signal);
    settings.signal?.throwIfAborted();
  }
}

/** The answer, or why there was none. The caller's abort is rethrown, never reported. */
async function attemptPost(settings: Settings, body: string): Promise<PostAnswer | string> {
  try {
    return await postJson(settings.endpoint, body, settings.post);
  } catch (error) {
    settings.signal?.throwIfAborted();
    if (isWaymarkError(error)) return error.message;
    throw error;
  }
}

/**
 * How long to wait before the next attempt: what `Retry-After` asks on a 429 or 5xx that
 * sends it, else the back-off for this attempt. A string when the endpoint asks for longer
 * than `maxRetryDelayMs` (the retry would come too early).
 */
function retryWait(
  answer: PostAnswer | string,
  attempt: number,
  settings: Settings,
): number | string {
  const backOff = Math.min(settings.retryDelayMs * 2 ** (attempt - 1), settings.maxRetryDelayMs);
  if (typeof answer === 'string') return backOff;
  const asked = retryAfterMs(answer.retryAfter, settings.now());
  if (asked === null) return backOff;
  if (asked > settings.maxRetryDelayMs) {
    return `not retried: Retry-After asks for ${Math.ceil(asked / 1000)} s, more than the ${Math.ceil(settings.maxRetryDelayMs / 1000)} s allowed (maxRetryDelayMs)`;
  }
  // Never sooner than the back-off: `Retry-After: 0` on every answer would otherwise be a
  // burst of retries against a shared endpoint that is already refusing.
  return Math.max(asked, backOff);
}

function batchResult(
  batch: number,
  urls: number,
  answer: PostAnswer | string,
  attempts: number,
): IndexNowBatchResult {
  if (typeof answer === 'string') {
    return {
      batch,
      urls,
      status: null,
      meaning: 'no answer from the endpoint',
      attempts,
      outcome: 'failed',
      ok: false,
      error: answer,
    };
  }
  const ok = isAcceptedStatus(answer.status);
  return {
    batch,
    urls,
    status: answer.status,
    meaning: indexNowStatusMeaning(answer.status),
    attempts,
    outcome: ok ? 'accepted' : 'rejected',
    ok,
    ...(answer.excerpt === '' ? {} : { detail: answer.excerpt }),
  };
}

function notSent(batch: number, urls: number, reason: string): IndexNowBatchResult {
  return {
    batch,
    urls,
    status: null,
    meaning: 'not sent',
    attempts: 0,
    outcome: 'not-sent',
    ok: false,
    error: reason,
  };
}

/**
 * An answer about the key or the endpoint rather than this batch's URLs: the next batch
 * would meet it too.
 */
function stopsTheRest(result: IndexNowBatchResult): boolean {
  if (result.status === null) return result.outcome === 'failed';
  return result.status === 403 || result.status === 429 || result.status >= 500;
}

function readSettings(submission: IndexNowSubmission): Settings {
  const endpoint = URL.parse(submission.endpoint ?? INDEXNOW_DEFAULT_ENDPOINT);
  if (endpoint === null || (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:')) {
    throw new WaymarkError(
      'invalid-argument',
      `IndexNow endpoint must be an http(s) URL, got ${JSON.stringify(submission.endpoint)}`,
    );
  }
  const maxRetries = count('maxRetries', submission.maxRetries ?? DEFAULTS.maxRetries, 0);
  const retryDelayMs = count('retryDelayMs', submission.retryDelayMs ?? DEFAULTS.retryDelayMs, 0);
  const maxRetryDelayMs = count(
    'maxRetryDelayMs',
    submission.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    0,
  );
  const timeoutMs = count('timeoutMs', submission.timeoutMs ?? DEFAULTS.timeoutMs, 1);
  const maxResponseBytes = count(
    'maxResponseBytes',
    submission.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    0,
  );
  const fetchFunction: FetchFunction = submission.fetch ?? globalThis.fetch;
  return {
    endpoint: endpoint.href,
    maxRetries,
    retryDelayMs,
    maxRetryDelayMs: Math.min(maxRetryDelayMs, MAX_TIMEOUT_MS),
    post: {
      fetch: fetchFunction,
      headers: submission.headers ?? {},
      timeoutMs: Math.min(timeoutMs, MAX_TIMEOUT_MS),
      maxResponseBytes,
      signal: submission.signal,
    },
    sleep: submission.sleep ?? abortableSleep,
    now: submission.now ?? Date.now,
    signal: submission.signal,
  };
}

/** A whole number option, at least `min`. */
function count(name: string, value: number, min: number): number {
  if (!(Number.isSafeInteger(value) && value >= min)) {
    throw new WaymarkError(
      'invalid-argument',
      `${name} must be a whole number, ${min} or more, got ${String(value)}`,
    );
  }
  return value;
}
