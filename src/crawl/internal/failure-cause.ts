import { isWaymarkError } from '../../shared/waymark-error.ts';

/** undici's own codes, in the words of the system errors they stand for. */
const UNDICI_CODES: Readonly<Record<string, string>> = {
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_CLOSED: 'connection closed',
};

/** waymark's HTTP error codes that name the cause well enough on their own. */
const OWN_CODES = new Set(['timeout', 'too-large', 'redirect-limit', 'blocked-address']);

/**
 * The short, stable name of why a request failed, for a summary line: waymark's own code
 * (`timeout`, `too-large`, `redirect-limit`, `blocked-address`), else the system error code
 * under a network failure (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`), else the most
 * specific message of the error chain. Node's fetch throws `TypeError: fetch failed` with
 * the useful part as its cause, and waymark's `network` errors wrap that again.
 */
export function failureCause(error: unknown): string {
  let message = String(error);
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (isWaymarkError(current) && OWN_CODES.has(current.code)) return current.code;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code)) return code;
    if (typeof code === 'string' && UNDICI_CODES[code] !== undefined) return UNDICI_CODES[code];
    if (current.name === 'TimeoutError') return 'timeout';
    if (current.message !== '') message = current.message;
    current = current.cause;
  }
  return message;
}
