/**
 * What each response code means, in the words of the IndexNow documentation
 * (https://www.indexnow.org/documentation, "Response format").
 */
const DOCUMENTED: ReadonlyMap<number, string> = new Map([
  [200, 'OK: URL submitted successfully'],
  [202, 'Accepted: URL received, IndexNow key validation pending'],
  [400, 'Bad request: invalid format'],
  [403, 'Forbidden: key not valid (key file not found, or the file does not hold the key)'],
  [
    422,
    'Unprocessable Entity: URLs do not belong to the host, or the key does not match the schema in the protocol',
  ],
  [429, 'Too Many Requests: too many requests (potential spam)'],
]);

/**
 * The meaning of an IndexNow response code: the documented one for 200, 202, 400, 403, 422
 * and 429, a general one for any other.
 *
 * @example
 * ```ts
 * indexNowStatusMeaning(202); // 'Accepted: URL received, IndexNow key validation pending'
 * ```
 */
export function indexNowStatusMeaning(status: number): string {
  const documented = DOCUMENTED.get(status);
  if (documented !== undefined) return documented;
  if (status >= 500 && status <= 599)
    return `server error ${status}: the endpoint failed, try again later`;
  if (status >= 200 && status <= 299)
    return `status ${status}: not an IndexNow answer (only 200 and 202 mean accepted)`;
  return `status ${status}: not an IndexNow answer`;
}

/** 200 and 202: the endpoint has the URLs. */
export function isAcceptedStatus(status: number): boolean {
  return status === 200 || status === 202;
}
