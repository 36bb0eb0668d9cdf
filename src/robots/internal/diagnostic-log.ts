import type { Diagnostic, Severity } from '../../shared/diagnostic.ts';
import { CANONICAL_KEY } from './directive-key.ts';
import { MAX_LINE_BYTES } from './scan-lines.ts';
import { productToken } from './user-agent.ts';

/**
 * What a recorded diagnostic is. The common ones are kept as numbers and their messages made
 * only when `diagnostics` is first read: a crawler checking a URL never reads them, and
 * building ~20 messages per small file was a tenth of a parse. Rare ones are kept built.
 */
export const DiagnosticKind = {
  /** Operand: an index into the built diagnostics. */
  built: 0,
  lineTooLong: 1,
  invalidUtf8: 2,
  /** Operand: the key. */
  missingColon: 3,
  unknownDirective: 4,
  unsupportedDirective: 5,
  unsupportedCrawlDelay: 6,
  invalidLine: 7,
  /** Operand: the user-agent value. */
  invalidUserAgent: 8,
  userAgentNotToken: 9,
  /** Operand: the rule's value. */
  patternNotPath: 10,
  /** Operand: the sitemap value, the string after it its resolved URL. */
  relativeSitemapUrl: 11,
  /** Plus the index of the key's canonical spelling in {@link MISSPELLED_KEYS}. Operand: the key. */
  misspelled: 12,
} as const;

/** The keys a misspelling is reported for, by their offset from `DiagnosticKind.misspelled`. */
export const MISSPELLED_KEYS = Object.keys(CANONICAL_KEY) as (keyof typeof CANONICAL_KEY)[];

/** Numbers per recorded diagnostic: kind, line, and an operand (see {@link DiagnosticLog}). */
const FACT_FIELDS = 4;

/**
 * A parse's diagnostics as facts, four numbers each: kind, line, and an operand that is a
 * span `[from, to)` of the file text, or, when `from` is negative, the string at
 * `strings[-1 - from]` (a span that is not the text as shown: decoded bytes, the kept part
 * of an over-long line). {@link DiagnosticLog.build} makes the diagnostics the eager parser
 * made, in the same order.
 */
export class DiagnosticLog {
  readonly facts: number[] = [];
  readonly strings: string[] = [];
  readonly built: Diagnostic[] = [];
  /** The text spans point into. */
  text = '';

  /** A diagnostic whose message is already made. */
  add(diagnostic: Diagnostic): void {
    this.facts.push(DiagnosticKind.built, diagnostic.line, this.built.length, 0);
    this.built.push(diagnostic);
  }

  /** A diagnostic about `text[from, to)` (or nothing, for kinds that quote nothing). */
  span(kind: number, line: number, from: number, to: number): void {
    this.facts.push(kind, line, from, to);
  }

  /** A diagnostic about `value`, which is not a span of the text. */
  string(kind: number, line: number, value: string): void {
    this.facts.push(kind, line, -1 - this.strings.length, 0);
    this.strings.push(value);
  }

  /** The diagnostics in line order (stable: same-line ones as recorded). */
  build(): Diagnostic[] {
    const { facts, strings, built, text } = this;
    const diagnostics: Diagnostic[] = [];
    for (let i = 0; i < facts.length; i += FACT_FIELDS) {
      const kind = facts[i] as number;
      const line = facts[i + 1] as number;
      const from = facts[i + 2] as number;
      if (kind === DiagnosticKind.built) {
        diagnostics.push(built[from] as Diagnostic);
        continue;
      }
      const subject =
        from >= 0 ? text.slice(from, facts[i + 3] as number) : (strings[-1 - from] as string);
      diagnostics.push(made(kind, line, subject, from < 0 ? strings[-from] : undefined));
    }
    // Nearly always already in line order (a stable sort would change nothing then).
    if (!inLineOrder(diagnostics)) diagnostics.sort((a, b) => a.line - b.line);
    return diagnostics;
  }
}

function made(kind: number, line: number, subject: string, next: string | undefined): Diagnostic {
  switch (kind) {
    case DiagnosticKind.lineTooLong:
      return diagnostic(
        'warning',
        line,
        'line-too-long',
        `line is longer than ${MAX_LINE_BYTES} bytes; the rest of it is ignored`,
        MAX_LINE_BYTES + 1,
      );
    case DiagnosticKind.invalidUtf8:
      return diagnostic(
        'warning',
        line,
        'invalid-utf8',
        'line is not valid UTF-8; its bytes are matched as percent-escapes',
      );
    case DiagnosticKind.missingColon:
      return diagnostic(
        'warning',
        line,
        'missing-colon',
        `"${subject}" is not followed by a colon; Google accepts it, other crawlers may not`,
      );
    case DiagnosticKind.unknownDirective:
      return diagnostic(
        'warning',
        line,
        'unknown-directive',
        `unknown directive "${subject}"; ignored`,
      );
    case DiagnosticKind.unsupportedDirective:
      return diagnostic(
        'info',
        line,
        'unsupported-directive',
        `"${subject}" is not part of RFC 9309 and Google ignores it`,
      );
    case DiagnosticKind.unsupportedCrawlDelay:
      return diagnostic(
        'info',
        line,
        'unsupported-directive',
        '"Crawl-delay" is not part of RFC 9309 and Google ignores it (Bing and Yandex honour it)',
      );
    case DiagnosticKind.invalidLine:
      return diagnostic(
        'error',
        line,
        'invalid-line',
        'line is not a "key: value" directive; ignored',
      );
    case DiagnosticKind.invalidUserAgent:
      return diagnostic(
        'warning',
        line,
        'invalid-user-agent',
        `user-agent "${subject}" has no product token (letters, "-" and "_"); it matches no crawler`,
      );
    case DiagnosticKind.userAgentNotToken:
      return diagnostic(
        'warning',
        line,
        'user-agent-not-token',
        `user-agent "${subject}" is matched as its product token "${productToken(subject)}"`,
      );
    case DiagnosticKind.patternNotPath:
      return diagnostic(
        'error',
        line,
        'pattern-not-path',
        `pattern "${subject}" does not start with "/" or "*", so it never matches a URL path`,
      );
    case DiagnosticKind.relativeSitemapUrl:
      return diagnostic(
        'warning',
        line,
        'relative-sitemap-url',
        `sitemap "${subject}" is relative; read as ${next}`,
      );
    default: {
      const canonical = CANONICAL_KEY[MISSPELLED_KEYS[kind - DiagnosticKind.misspelled] ?? 'allow'];
      return diagnostic(
        'warning',
        line,
        'misspelled-directive',
        `"${subject}" is a misspelling of "${canonical}"; Google accepts it, other crawlers may not`,
      );
    }
  }
}

/** A diagnostic with its keys in the order every robots diagnostic has them. */
function diagnostic(
  severity: Severity,
  line: number,
  code: string,
  message: string,
  column = 1,
): Diagnostic {
  return { code, severity, message, line, column };
}

function inLineOrder(diagnostics: readonly Diagnostic[]): boolean {
  for (let i = 1; i < diagnostics.length; i++) {
    if ((diagnostics[i] as Diagnostic).line < (diagnostics[i - 1] as Diagnostic).line) return false;
  }
  return true;
}
