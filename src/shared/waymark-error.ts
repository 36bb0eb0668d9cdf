/**
 * Stable codes for thrown errors. Thrown errors are only for a caller's misuse and for I/O
 * failures; input problems are diagnostics.
 */
export type WaymarkErrorCode = 'invalid-argument' | 'io-failed' | 'usage';

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
