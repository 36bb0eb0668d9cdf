import { ReservedPaths } from './reserved-paths.ts';
import { DEFAULT_SITE_CONFIG } from './site-config.ts';

/** Longest alias accepted, so an absolute URL stays well under the sitemap's 2,048. */
export const MAX_ALIAS_LENGTH = 1024;

/** Why an alias was refused. */
export type AliasProblem =
  | 'not-a-string'
  | 'empty'
  | 'too-long'
  | 'bad-character'
  | 'traversal'
  | 'empty-segment'
  | 'reserved'
  | 'collision';

/** An accepted alias, in both spellings, or the reason it was refused. */
export type AliasValidation =
  | {
      readonly valid: true;
      /** Without leading or trailing slash: `about/team`. */
      readonly alias: string;
      /** The URL path, before the trailing-slash policy: `/about/team`. */
      readonly path: string;
    }
  | { readonly valid: false; readonly problem: AliasProblem; readonly message: string };

export interface ValidateAliasOptions {
  /** The reserved-path registry (default: the built-ins and `admin/`). */
  readonly reserved?: ReservedPaths;
  /** Another document that already claims this alias (its relative path), or null. */
  readonly takenBy?: (alias: string) => string | null;
}

const SEGMENT = /^[A-Za-z0-9._~-]+$/;
let defaultReserved: ReservedPaths | null = null;

/**
 * Checks a sidecar's `alias`. An alias is a path of segments made of letters, digits and
 * `.`, `_`, `~`, `-` (URL-safe without encoding), joined by `/`; a leading or trailing `/`
 * is dropped. Refused, each with a message that says why: anything that is not such a
 * path, `.` and `..` segments, empty segments, a path the reserved-path registry holds
 * (`robots.txt`, `id/...`, the admin area, ...) and one another document already claims.
 *
 * @example
 * ```ts
 * validateAlias('about/team'); // { valid: true, alias: 'about/team', path: '/about/team' }
 * validateAlias('api/users').valid; // false: "/api/users" is reserved (the API)
 * ```
 */
export function validateAlias(alias: unknown, options: ValidateAliasOptions = {}): AliasValidation {
  if (typeof alias !== 'string') return refuse('not-a-string', 'the alias is not a string');
  const trimmed = alias.replace(/^\//, '').replace(/\/$/, '');
  if (trimmed === '') return refuse('empty', 'the alias is empty ("/" is the site index)');
  if (trimmed.length > MAX_ALIAS_LENGTH) {
    return refuse('too-long', `the alias is longer than ${MAX_ALIAS_LENGTH} characters`);
  }
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (segment === '')
      return refuse('empty-segment', `alias ${show(alias)} has an empty segment ("//")`);
    if (segment === '.' || segment === '..') {
      return refuse('traversal', `alias ${show(alias)} has a "${segment}" segment`);
    }
    if (!SEGMENT.test(segment)) {
      return refuse(
        'bad-character',
        `alias ${show(alias)} has a character other than letters, digits, ".", "_", "~", "-" and "/"`,
      );
    }
  }
  const path = `/${trimmed}`;
  defaultReserved ??= new ReservedPaths(DEFAULT_SITE_CONFIG);
  const reserved = (options.reserved ?? defaultReserved).match(path);
  if (reserved !== null) {
    return refuse('reserved', `alias ${show(alias)} is reserved (${reserved.reason})`);
  }
  const other = options.takenBy?.(trimmed) ?? null;
  if (other !== null) {
    return refuse('collision', `alias ${show(alias)} is also claimed by ${show(other)}`);
  }
  return { valid: true, alias: trimmed, path };
}

function refuse(problem: AliasProblem, message: string): AliasValidation {
  return { valid: false, problem, message };
}

function show(text: string): string {
  return JSON.stringify(text.length <= 80 ? text : `${text.slice(0, 80)}…`);
}
