import type { FetchFunction } from '../http/index.ts';

/**
 * How long to wait before a retry, in milliseconds: resolves after `ms`, or rejects with the
 * signal's reason as soon as it fires. The default waits with a timer; pass your own to
 * drive retries without real waiting (a test, a scheduler with its own clock).
 */
export type IndexNowSleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/** What to submit to an IndexNow endpoint, and how. See {@link submitIndexNow}. */
export interface IndexNowSubmission {
  /**
   * The site's host, as IndexNow wants it: `www.example.com` (a port, `example.com:8080`, is
   * kept and then compared with each URL's port too). Only URLs on this host are sent.
   */
  readonly host: string;
  /** The key: 8 to 128 characters of `a-z`, `A-Z`, `0-9` and `-` ({@link isValidIndexNowKey}). */
  readonly key: string;
  /**
   * Where the key file is, when it is not `https://<host>/<key>.txt`: an http(s) URL on
   * `host`. A key file in a folder vouches only for URLs under that folder, so URLs outside
   * it are refused, not sent.
   */
  readonly keyLocation?: string;
  /** The URLs that were added, updated or deleted. Duplicates are sent once. */
  readonly urls: readonly string[];
  /** Default {@link INDEXNOW_DEFAULT_ENDPOINT}, which shares the URLs with every engine. */
  readonly endpoint?: string;
  /** The `fetch` to POST with. Default `globalThis.fetch`. */
  readonly fetch?: FetchFunction;
  /** Stops the submission; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Retries of one batch after a 429, a 5xx or a network failure. Default 3. */
  readonly maxRetries?: number;
  /** The first back-off wait, doubled on each retry. Default 1,000 ms. */
  readonly retryDelayMs?: number;
  /**
   * The longest wait before a retry. A 429 whose `Retry-After` asks for more is not retried
   * (retrying sooner would ignore what the endpoint asked): the batch ends as throttled.
   * Default 60,000 ms.
   */
  readonly maxRetryDelayMs?: number;
  /** Time for one request, response body included. Default 30,000 ms. */
  readonly timeoutMs?: number;
  /** Most response-body bytes read (only a short excerpt is kept). Default 64 KiB. */
  readonly maxResponseBytes?: number;
  /** Extra request headers, e.g. `user-agent`. `content-type` is always IndexNow's. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called as each batch ends, in order, before the next one starts. */
  readonly onBatch?: (result: IndexNowBatchResult) => void;
  /** Waits between retries. Default: a timer. */
  readonly sleep?: IndexNowSleep;
  /** The clock that HTTP-date `Retry-After` values are read against. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * How a batch ended:
 * - `accepted`: 200 or 202;
 * - `rejected`: any other answer (400, 403, 422, a 429 or 5xx after the last retry...);
 * - `failed`: no answer (network failure, time cap, response too large) after the last retry;
 * - `not-sent`: skipped, because an earlier batch was answered in a way that would hold for
 *   every batch (403 key not valid, 429, 5xx or no answer at all).
 */
export type IndexNowOutcome = 'accepted' | 'rejected' | 'failed' | 'not-sent';

/** One POST of up to 10,000 URLs, and how it ended. */
export interface IndexNowBatchResult {
  /** 1 for the first batch. */
  readonly batch: number;
  /** How many URLs it carried. */
  readonly urls: number;
  /** The last status answered; null when there was no answer (or the batch was not sent). */
  readonly status: number | null;
  /** What the status means in the IndexNow documentation, or why there is none. */
  readonly meaning: string;
  /** Requests made for it: 1 plus the retries; 0 when not sent. */
  readonly attempts: number;
  readonly outcome: IndexNowOutcome;
  /** `outcome === 'accepted'`. */
  readonly ok: boolean;
  /** Why there was no answer, or why the batch was not sent or not retried. */
  readonly error?: string;
  /** The start of the response body, when the endpoint said something (trimmed, at most 500 characters). */
  readonly detail?: string;
}

/** A URL that was not sent, and why. */
export interface IndexNowRefusedUrl {
  readonly url: string;
  readonly reason: string;
}

/** What {@link submitIndexNow} did. */
export interface IndexNowReport {
  readonly batches: readonly IndexNowBatchResult[];
  /** URLs in batches that were sent (whatever the answer). */
  readonly submitted: number;
  /** URLs not sent: not a URL, not http(s), another host, outside the key file's folder. */
  readonly refused: readonly IndexNowRefusedUrl[];
  /** Repeated URLs dropped (each distinct URL is sent once). */
  readonly duplicates: number;
  /** Every batch accepted and no URL refused. */
  readonly ok: boolean;
}
