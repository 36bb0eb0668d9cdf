/** Diagnostics kept per code: a broken file must not make thousands of them. */
const MAX_PER_CODE = 100;

/**
 * Counts diagnostics per code and says what to keep: the message itself for the first
 * {@link MAX_PER_CODE} of a code, a note that more were left out for the next one, and
 * nothing (null) after that.
 *
 * @example
 * ```ts
 * const cap = new PerCodeCap();
 * cap.message('invalid-base', 'xml:base "http://[" is not a URL'); // the message, 100 times
 * ```
 */
export class PerCodeCap {
  readonly #perCode = new Map<string, number>();

  message(code: string, message: string): string | null {
    const count = (this.#perCode.get(code) ?? 0) + 1;
    this.#perCode.set(code, count);
    if (count > MAX_PER_CODE + 1) return null;
    return count > MAX_PER_CODE
      ? `more "${code}" problems follow; only the first ${MAX_PER_CODE} are listed`
      : message;
  }
}
