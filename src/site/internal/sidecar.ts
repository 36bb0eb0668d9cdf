import type { Diagnostic } from '../../shared/diagnostic.ts';
import { checkContentUsageValue } from './content-usage-value.ts';
import { readYaml } from './read-yaml.ts';

/** Who may see a document. */
export type PageAccess = 'public' | 'restricted' | 'deny';

/** What a `<file>.meta.yaml` says; `broken` when any error was found. */
export interface SidecarMeta {
  readonly id: string | null;
  readonly alias: string | null;
  readonly access: PageAccess;
  readonly roles: readonly string[];
  readonly noindex: boolean;
  readonly title: string | null;
  /** The document's `Content-Usage` header value (`train-ai=n`), or null: the configuration's. */
  readonly contentUsage: string | null;
  readonly broken: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

export const NO_SIDECAR: SidecarMeta = {
  id: null,
  alias: null,
  access: 'public',
  roles: [],
  noindex: false,
  title: null,
  contentUsage: null,
  broken: false,
  diagnostics: [],
};

const KEYS = new Set(['id', 'alias', 'access', 'roles', 'noindex', 'title', 'contentUsage']);
/** Keys other tools hide a page with; waymark reads `access` alone, so these must not pass unseen. */
const PRIVACY_KEYS = new Set(['draft', 'private', 'published', 'hidden', 'unlisted', 'visibility']);

/**
 * Why an unknown key surely meant to say something waymark reads, so that the document is
 * withheld rather than published against its author's wish; null for a plain unknown key
 * (a warning). Surely meant: a known key in other letter case (`Access`) or in look-alike
 * letters (a Cyrillic `а`, fullwidth letters), or a key other tools hide pages with (`draft`).
 */
function meantKey(key: string): string | null {
  const folded = lookalikesAsAscii(key).toLowerCase();
  const known = [...KEYS].find((k) => k.toLowerCase() === folded);
  if (known !== undefined) {
    return lookalikesAsAscii(key) === key
      ? `unknown key "${key}": keys are written "${known}"`
      : `unknown key "${key}" looks like "${known}" but is written with other letters`;
  }
  if (PRIVACY_KEYS.has(folded)) {
    return `unknown key "${key}": waymark hides a document with access: deny (or restricted), and reads no "${key}"`;
  }
  return null;
}

/** Cyrillic and Greek letters that look like Latin ones, and those Latin letters. */
const LOOKALIKE_FROM = 'аеосрхуіѕԁӏοαειτνАЕОСРХУІЅԀӀΟΑΕΙΤΝΚКМΜНΗВΒ';
const LOOKALIKE_TO = 'aeocpxyisdloaeitvAEOCPXYISDIOAEITNKKMMHHBB';
const LOOKALIKE = new RegExp(`[${LOOKALIKE_FROM}]`, 'g');
/** What does not show: format characters (zero-width space, soft hyphen) and any space. */
const UNSEEN = /[\p{Cf}\s]/gu;

/**
 * `key` with compatibility forms (fullwidth letters) and look-alike letters as ASCII, and
 * without what does not show (`acc\u200Bess`, a trailing no-break space).
 */
function lookalikesAsAscii(key: string): string {
  return key
    .normalize('NFKC')
    .replace(UNSEEN, '')
    .replace(LOOKALIKE, (c) => LOOKALIKE_TO[LOOKALIKE_FROM.indexOf(c)] ?? c);
}

/** Ids are hex, 4 to 64 digits, written lower-case. */
const HEX_ID = /^[0-9a-fA-F]{4,64}$/;

/** Sidecars hold a few keys: more alias expansion than this is an attack, not metadata. */
export const MAX_SIDECAR_ALIASES = 16;

/**
 * Reads a sidecar. Total: broken YAML (an alias without its anchor, an alias bomb
 * included) or a wrong value is an error diagnostic, at the line of the alias or key
 * concerned, and makes the sidecar `broken` (the document is then not public), never a
 * throw. Scalars are read with YAML's failsafe schema, so `id: 0012` keeps its zeros;
 * booleans are `true`/`false`.
 */
export function parseSidecar(text: string): SidecarMeta {
  return quickSidecar(text) ?? parseSidecarYaml(text);
}

/** One line of the common form: a known key, one space, a value YAML takes literally. */
const SIMPLE_LINE =
  /^(id|alias|access|noindex|title): (?:([A-Za-z0-9/][A-Za-z0-9/._-]*)|"([ !#-[\]-~]*)")$/;
/** `roles: [a, b]`: a flow list of plain words. */
const ROLES_LINE =
  /^roles: \[((?:[A-Za-z0-9][A-Za-z0-9._-]*)(?:, [A-Za-z0-9][A-Za-z0-9._-]*)*)?\]$/;

/**
 * The sidecars most roots hold (`title: "..."`, `alias: a/b`, `roles: [a, b]`, ...: known
 * keys, each once, with values that are plain words, double-quoted text without escapes or
 * a flow list of plain words) read without the YAML library, which costs most of a cold
 * start's CPU on a root of 50,000 documents. A wrong `id`, `access` or `noindex` in this form
 * is reported here; null for anything else, so that {@link parseSidecarYaml} reads it and
 * reports where. Held to the same result by a differential test.
 */
export function quickSidecar(text: string): SidecarMeta | null {
  if (text.length > 4096) return null;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return null;
  const seen: Record<string, string> = {};
  /** The line of each key: in this form, a key starts its line. */
  const lineOf: Record<string, number> = {};
  let roles: string[] | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const list = ROLES_LINE.exec(line);
    if (list !== null) {
      if (roles !== null) return null;
      roles = list[1] === undefined ? [] : list[1].split(', ');
      continue;
    }
    const match = SIMPLE_LINE.exec(line);
    if (match === null) return null;
    const key = match[1] as string;
    if (key in seen) return null;
    seen[key] = match[2] ?? (match[3] as string);
    lineOf[key] = index + 1;
  }
  const { id, access, noindex, alias, title } = seen;
  // A wrong value is reported as the YAML reading reports it (same code, message and key
  // position, in the same order) and then left out: a root whose sidecars are all of this
  // form, mistakes included, never loads the YAML library (about 10 MB of resident memory).
  const diagnostics: Diagnostic[] = [];
  const error = (key: string, code: string, message: string): void => {
    diagnostics.push({ code, severity: 'error', message, line: lineOf[key] ?? 1, column: 1 });
  };
  const validId = id !== undefined && HEX_ID.test(id) ? id : null;
  if (id !== undefined && validId === null) {
    error('id', 'sidecar-id', 'id must be 4 to 64 hexadecimal digits');
  }
  const validAccess =
    access === 'public' || access === 'restricted' || access === 'deny' ? access : null;
  if (access !== undefined && validAccess === null) {
    error('access', 'sidecar-access', 'access must be public, restricted or deny');
  }
  if (noindex !== undefined && noindex !== 'true' && noindex !== 'false') {
    error('noindex', 'sidecar-noindex', 'noindex must be true or false');
  }
  // Kept for as long as the document is: strings of their own, not slices that keep the
  // sidecar's whole text alive; the empty lists shared.
  return {
    id: validId === null ? null : ownString(validId.toLowerCase()),
    alias: alias === undefined ? null : ownString(alias),
    access: validAccess ?? 'public',
    roles: roles ?? NO_SIDECAR.roles,
    noindex: noindex === 'true',
    title: title === undefined ? null : ownString(title),
    contentUsage: null,
    broken: diagnostics.length > 0,
    diagnostics: diagnostics.length > 0 ? diagnostics : NO_SIDECAR.diagnostics,
  };
}

/**
 * The same text as a string of its own. A value matched out of a sidecar is a slice that
 * keeps the whole text it came from alive (V8 makes slices of 13 characters or more); a
 * JSON round trip is exact for every string (lone surrogates included) and yields a flat copy.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** {@link parseSidecar} through the YAML library: every form, with positioned problems. */
export function parseSidecarYaml(text: string): SidecarMeta {
  const diagnostics: Diagnostic[] = [];
  const reading = readYaml(text, { schema: 'failsafe', maxAliasCount: MAX_SIDECAR_ALIASES });
  const keyAt = (key: string): { line: number; column: number } =>
    reading.keyPositions.get(key) ?? { line: 1, column: 1 };
  const error = (code: string, message: string, key?: string): void => {
    const at = key === undefined ? { line: 1, column: 1 } : keyAt(key);
    diagnostics.push({ code, severity: 'error', message, ...at });
  };
  for (const problem of reading.problems) {
    const { message, line, column } = problem;
    diagnostics.push({ code: 'sidecar-yaml', severity: 'error', message, line, column });
  }
  const value = reading.value;
  if (reading.problems.length === 0 && value === null) {
    // Saving a file in place empties it first: read in that moment, an empty sidecar that
    // meant `access: deny` would publish the page. A sidecar with nothing to say is removed.
    error(
      'sidecar-empty',
      'the sidecar says nothing (empty, or only comments); the document is withheld until it does: write access: public, or remove the file',
    );
  } else if (reading.problems.length === 0 && (typeof value !== 'object' || Array.isArray(value))) {
    error('sidecar-shape', 'the sidecar is not a mapping of keys to values');
  }
  const fields =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  for (const key of Object.keys(fields)) {
    if (KEYS.has(key)) continue;
    const meant = meantKey(key);
    if (meant === null) {
      diagnostics.push({
        code: 'sidecar-unknown-key',
        severity: 'warning',
        message: `unknown key "${key}" is ignored`,
        ...keyAt(key),
      });
    } else {
      error('sidecar-unknown-key', meant, key);
    }
  }
  let id: string | null = null;
  if (fields['id'] !== undefined) {
    const raw = fields['id'];
    if (typeof raw === 'string' && HEX_ID.test(raw)) id = raw.toLowerCase();
    else error('sidecar-id', 'id must be 4 to 64 hexadecimal digits', 'id');
  }
  let alias: string | null = null;
  if (fields['alias'] !== undefined) {
    if (typeof fields['alias'] === 'string') alias = fields['alias'];
    else error('sidecar-alias', 'alias must be a path such as about/team', 'alias');
  }
  let access: PageAccess = 'public';
  const rawAccess = fields['access'];
  if (rawAccess !== undefined) {
    if (rawAccess === 'public' || rawAccess === 'restricted' || rawAccess === 'deny')
      access = rawAccess;
    else error('sidecar-access', 'access must be public, restricted or deny', 'access');
  }
  let roles: string[] = [];
  if (fields['roles'] !== undefined) {
    const raw = fields['roles'];
    if (Array.isArray(raw) && raw.every((r) => typeof r === 'string')) roles = raw;
    else error('sidecar-roles', 'roles must be a list of names', 'roles');
  }
  let noindex = false;
  if (fields['noindex'] !== undefined) {
    if (fields['noindex'] === 'true' || fields['noindex'] === 'false') {
      noindex = fields['noindex'] === 'true';
    } else error('sidecar-noindex', 'noindex must be true or false', 'noindex');
  }
  let title: string | null = null;
  if (fields['title'] !== undefined) {
    if (typeof fields['title'] === 'string') title = fields['title'];
    else error('sidecar-title', 'title must be text', 'title');
  }
  let contentUsage: string | null = null;
  if (fields['contentUsage'] !== undefined) {
    const raw = fields['contentUsage'];
    const check =
      typeof raw === 'string' ? checkContentUsageValue(raw) : { error: 'is not text', notes: [] };
    if (check.error === null) contentUsage = raw as string;
    else {
      error(
        'sidecar-content-usage',
        `contentUsage ${check.error} (write terms such as train-ai=n)`,
        'contentUsage',
      );
    }
    // Sent as written: the vocabulary is still moving; what waymark does not know is told.
    for (const note of check.notes) {
      diagnostics.push({
        ...note,
        message: `contentUsage: ${note.message}`,
        ...keyAt('contentUsage'),
      });
    }
  }
  const broken = diagnostics.some((d) => d.severity === 'error');
  return {
    id: id === null ? null : ownString(id),
    alias: alias === null ? null : ownString(alias),
    access,
    roles,
    noindex,
    title: title === null ? null : ownString(title),
    contentUsage: contentUsage === null ? null : ownString(contentUsage),
    broken,
    diagnostics,
  };
}
