import type { RobotsLine, UsageField, UsagePreference } from '../types.ts';
import { parseUsageStatement, type UsageProblem } from '../usage-statement.ts';

const EXTENSION_NOTE: Readonly<Record<UsageField, string>> = {
  'content-usage':
    'Content-Usage states AI usage preferences (draft-ietf-aipref-attach-05, an extension of RFC 9309); Google ignores it',
  'content-signal':
    "Content-Signal states usage preferences (Cloudflare's Content Signals Policy, an extension of RFC 9309); Google ignores it",
};

/**
 * A scanned Content-Usage or Content-Signal line as a preference, and what to report about
 * it: always a `usage-extension` note, then the statement's own problems.
 */
export function readUsageLine(line: RobotsLine): {
  preference: UsagePreference;
  problems: UsageProblem[];
} {
  const field = line.kind as UsageField;
  // scanLines has set `pattern` exactly when the value starts with a path.
  const value = line.pattern === null ? line.value : statementAfterPath(line.value);
  const statement = parseUsageStatement(field, value);
  return {
    preference: {
      field,
      path: line.pattern,
      value,
      preferences: statement.preferences,
      unknownTerms: statement.unknownTerms,
      valid: statement.valid,
      line: line.line,
    },
    problems: [
      { code: 'usage-extension', severity: 'info', message: EXTENSION_NOTE[field] },
      ...statement.problems,
    ],
  };
}

/** What follows the path of a usage line's value: after the first run of blanks. */
function statementAfterPath(value: string): string {
  let i = 0;
  while (i < value.length && value.charCodeAt(i) !== 0x20 && value.charCodeAt(i) !== 0x09) i++;
  while (i < value.length && (value.charCodeAt(i) === 0x20 || value.charCodeAt(i) === 0x09)) i++;
  return value.slice(i);
}
