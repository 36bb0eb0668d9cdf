/**
 * Stable codes for thrown errors. Thrown errors are only for a caller's misuse and for I/O
 * failures; input problems are diagnostics.
 *
 * - `invalid-argument`: the caller passed something the library cannot take (a bad option,
 *   a URL that is not http(s)).
 * - `usage`: a call out of order (a writer used after `close()`), and the command line's
 *   usage errors (an unknown flag, a missing argument).
 * - `io-failed`: the file system failed (a file that cannot be read or written).
 * - `timeout`: an HTTP fetch ran out of time (connect, headers or body).
 * - `too-large`: an HTTP body was larger than its size cap.
 * - `redirect-limit`: more redirects than allowed, or a redirect loop.
 * - `network`: the connection failed or the server broke the exchange (refused, reset,
 *   DNS, TLS, an invalid or non-http(s) redirect `Location`).
 * - `http-status`: a caller that needs a success status got another one.
 * - `blocked-address`: `blockPrivateAddresses` refused the address a URL leads to.
 */
export type WaymarkErrorCode =
  | 'invalid-argument'
  | 'io-failed'
  | 'usage'
  | 'timeout'
  | 'too-large'
  | 'redirect-limit'
  | 'network'
  | 'http-status'
  | 'blocked-address';

/**
 * The one error family waymark throws.
 *
 * @example
 * ```ts
 * try {
 *   formatRobots({ groups: [{ userAgents: ['Bad Bot'], rules: [] }] });
 * } catch (error) {
 *   if (isWaymarkError(error)) console.error(error.code, error.message);
 * }
 * ```
 */
export class WaymarkError extends Error {
  readonly code: WaymarkErrorCode;

  constructor(code: WaymarkErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WaymarkError';
    this.code = code;
  }
}

/**
 * True when `value` is a {@link WaymarkError}, also across copies of the package.
 *
 * @example
 * ```ts
 * if (isWaymarkError(error) && error.code === 'invalid-argument') process.exitCode = 2;
 * ```
 */
export function isWaymarkError(value: unknown): value is WaymarkError {
  return (
    value instanceof WaymarkError ||
    (value instanceof Error &&
      value.name === 'WaymarkError' &&
      typeof (value as { code?: unknown }).code === 'string')
  );
}
