import { parseUsageStatement, type UsageProblem } from '../../robots/usage-statement.ts';

/** Longest `Content-Usage` value accepted: a handful of terms, not a document. */
export const MAX_CONTENT_USAGE_LENGTH = 1024;

/** What is wrong with a `Content-Usage` value: an error (not sent), or notes about its terms. */
export interface ContentUsageCheck {
  /** Why the value may not be sent, or null. */
  readonly error: string | null;
  /** Terms the vocabulary does not define or values it does not take (the value is still sent). */
  readonly notes: readonly UsageProblem[];
}

/**
 * Checks a `Content-Usage` value (draft-ietf-aipref-attach: the HTTP field and the
 * robots.txt line carry the same statement, draft-ietf-aipref-vocab), such as
 * `train-ai=n, search=y`, with the robots parser's reader (`parseUsageStatement`). Not a
 * Structured Fields Dictionary, empty, too long or not printable ASCII is an error.
 * Unknown or legacy terms and values a term does not take are only notes: the vocabulary
 * is still changing, and a term waymark does not know may be one a crawler does.
 */
export function checkContentUsageValue(value: string): ContentUsageCheck {
  const error = (message: string): ContentUsageCheck => ({ error: message, notes: [] });
  if (value.trim().length === 0) return error('is empty');
  if (value.length > MAX_CONTENT_USAGE_LENGTH)
    return error(`is longer than ${MAX_CONTENT_USAGE_LENGTH} characters`);
  // Header values are ASCII without controls; a line break would start another header.
  if (!/^[\x20-\x7e]*$/.test(value)) return error('may only hold printable ASCII characters');
  const statement = parseUsageStatement('content-usage', value);
  if (!statement.valid) {
    return error('is not a list of term=value pairs such as train-ai=n, search=y');
  }
  return { error: null, notes: statement.problems.filter((p) => p.severity !== 'error') };
}

/**
 * The `Content-Usage` header of a document: its sidecar's value, else the configuration's
 * (one value, or the value of the longest URL path prefix its canonical path starts with),
 * else null (no header).
 */
export function documentContentUsage(
  sidecarValue: string | null,
  canonicalPath: string,
  configured: string | Readonly<Record<string, string>> | null,
): string | null {
  if (sidecarValue !== null) return sidecarValue;
  if (configured === null || typeof configured === 'string') return configured;
  let best: string | null = null;
  let bestLength = -1;
  for (const [prefix, value] of Object.entries(configured)) {
    if (prefix.length > bestLength && canonicalPath.startsWith(prefix)) {
      best = value;
      bestLength = prefix.length;
    }
  }
  return best;
}
