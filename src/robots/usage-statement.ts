import type { Severity } from '../shared/diagnostic.ts';
import { CANONICAL_KEY } from './internal/directive-key.ts';
import { parseDictionary } from './internal/structured-dictionary.ts';
import type { UsageField } from './types.ts';

/** The terms one usage field defines, and where they are defined. */
export interface UsageVocabulary {
  /** The document and version followed. */
  readonly source: string;
  readonly url: string;
  /** Term -> the values it takes, most restrictive first. */
  readonly terms: Readonly<Record<string, readonly string[]>>;
}

/**
 * The vocabularies waymark reads, by field. `Content-Usage` follows
 * draft-ietf-aipref-vocab-08 (September 2026); `Content-Signal` follows Cloudflare's
 * Content Signals Policy (September 2025) plus the `use` signal Cloudflare added to its
 * managed robots.txt in 2026 (documented by Cloudflare as a test).
 *
 * @example
 * ```ts
 * Object.keys(USAGE_VOCABULARY['content-usage'].terms); // ['train-ai', 'ai-use', 'search']
 * ```
 */
export const USAGE_VOCABULARY: Readonly<Record<UsageField, UsageVocabulary>> = {
  'content-usage': {
    source: 'draft-ietf-aipref-vocab-08',
    url: 'https://datatracker.ietf.org/doc/html/draft-ietf-aipref-vocab-08',
    terms: { 'train-ai': ['n', 'y'], 'ai-use': ['n', 'y'], search: ['n', 'y'] },
  },
  'content-signal': {
    source: 'Cloudflare Content Signals Policy',
    url: 'https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/',
    terms: {
      search: ['no', 'yes'],
      'ai-input': ['no', 'yes'],
      'ai-train': ['no', 'yes'],
      use: ['immediate', 'reference', 'full'],
    },
  },
};

/** Labels earlier revisions of draft-ietf-aipref-vocab defined and revision 08 does not. */
const LEGACY_CONTENT_USAGE = new Set([
  'all',
  'ai',
  'ai-output',
  'bots',
  'genai',
  'inference',
  'tdm',
  'train-genai',
]);

/** A problem with a usage statement, without a position (the caller knows the line). */
export interface UsageProblem {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
}

/** A usage statement read against its field's vocabulary. */
export interface UsageStatement {
  /** Every term whose value is a Token: term -> value as written; the last wins. */
  readonly preferences: Readonly<Record<string, string>>;
  /** Terms the vocabulary does not define, kept as written. */
  readonly unknownTerms: readonly string[];
  /** The text is a valid RFC 9651 Dictionary (else it expresses nothing). */
  readonly valid: boolean;
  readonly problems: readonly UsageProblem[];
}

/**
 * Reads a usage statement (`train-ai=n, search=y`) as its field's vocabulary says: an
 * RFC 9651 Dictionary whose keys are terms and whose Token values state a preference
 * (draft-ietf-aipref-vocab-08 section 6.5). Total: problems come back as `problems`, with
 * codes `invalid-usage-statement` (error: not a Dictionary, nothing is expressed),
 * `empty-usage-statement`, `invalid-usage-value`, `legacy-usage-term`,
 * `duplicate-usage-term` (warnings) and `unknown-usage-term` (info; the term is kept).
 * Also usable for a `Content-Usage` HTTP header value.
 *
 * @example
 * ```ts
 * const statement = parseUsageStatement('content-usage', 'train-ai=n, search=y');
 * statement.preferences; // { 'train-ai': 'n', search: 'y' }
 * statement.problems; // []
 * ```
 */
export function parseUsageStatement(field: UsageField, value: string): UsageStatement {
  const name = CANONICAL_KEY[field];
  if (value.length === 0) {
    return {
      preferences: {},
      unknownTerms: [],
      valid: true,
      problems: [
        {
          code: 'empty-usage-statement',
          severity: 'warning',
          message: `${name} line states no preference`,
        },
      ],
    };
  }
  const parsed = parseDictionary(value);
  if (parsed.error !== null) {
    return {
      preferences: {},
      unknownTerms: [],
      valid: false,
      problems: [
        {
          code: 'invalid-usage-statement',
          severity: 'error',
          message: `${name} value "${value}" is not a list of term=value pairs (${parsed.error}); it expresses no preference`,
        },
      ],
    };
  }
  const vocabulary = USAGE_VOCABULARY[field].terms;
  const preferences: Record<string, string> = {};
  const unknownTerms: string[] = [];
  const problems: UsageProblem[] = [];
  for (const key of parsed.duplicates) {
    problems.push({
      code: 'duplicate-usage-term',
      severity: 'warning',
      message: `"${key}" is given more than once; only the last value counts`,
    });
  }
  for (const member of parsed.members) {
    const known = Object.hasOwn(vocabulary, member.key) ? vocabulary[member.key] : undefined;
    if (member.kind === 'token') preferences[member.key] = member.text;
    if (known === undefined) {
      unknownTerms.push(member.key);
      problems.push(unknownTermProblem(field, member.key));
      continue;
    }
    if (member.kind !== 'token' || !known.includes(member.text)) {
      problems.push({
        code: 'invalid-usage-value',
        severity: 'warning',
        message: `${name} "${member.key}=${member.text}" expresses no preference: the value must be ${known.join(' or ')}`,
      });
    }
  }
  return { preferences, unknownTerms, valid: true, problems };
}

function unknownTermProblem(field: UsageField, term: string): UsageProblem {
  const name = CANONICAL_KEY[field];
  if (field === 'content-usage' && LEGACY_CONTENT_USAGE.has(term)) {
    return {
      code: 'legacy-usage-term',
      severity: 'warning',
      message: `"${term}" was defined by an earlier revision of draft-ietf-aipref-vocab; ${USAGE_VOCABULARY[field].source} does not define it, so crawlers following it ignore it`,
    };
  }
  const other: UsageField = field === 'content-usage' ? 'content-signal' : 'content-usage';
  const hint = Object.hasOwn(USAGE_VOCABULARY[other].terms, term)
    ? ` (it is a ${CANONICAL_KEY[other]} term)`
    : '';
  return {
    code: 'unknown-usage-term',
    severity: 'info',
    message: `${name} term "${term}" is not in ${USAGE_VOCABULARY[field].source}${hint}; kept as written`,
  };
}

/**
 * The statement that results from several lines that apply together: for each term, the
 * most restrictive value the vocabulary defines. Terms the vocabulary does not define keep
 * the value of the last line that gives one; values a known term does not take are left out.
 */
export function combineUsage(
  field: UsageField,
  statements: readonly Readonly<Record<string, string>>[],
): Record<string, string> {
  const vocabulary = USAGE_VOCABULARY[field].terms;
  const combined: Record<string, string> = {};
  for (const statement of statements) {
    for (const [term, value] of Object.entries(statement)) {
      const values = Object.hasOwn(vocabulary, term) ? vocabulary[term] : undefined;
      if (values === undefined) {
        combined[term] = value;
        continue;
      }
      const rank = values.indexOf(value);
      if (rank < 0) continue;
      const current = combined[term];
      if (current === undefined || rank < values.indexOf(current)) combined[term] = value;
    }
  }
  return combined;
}
