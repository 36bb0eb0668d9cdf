// What an element's attributes mean in its place in its own document: its base URI (XML
// Base), the inherited values, its XLink reference and the namespaces it declares. Pure:
// the document reader reports what these find.

import type { NamespaceScope } from '../../shared/xml/namespace-scope.ts';
import { XLINK_NS } from '../navmap-names.ts';
import { INHERITED_KEYS, type InheritedValues } from './raw-document.ts';

/**
 * The element's base URI: its `xml:base` (or the obsolete `baseurl`) resolved against its
 * parent's base (RFC 3986). A value that is not a URL leaves the parent's base.
 *
 * @example
 * ```ts
 * baseOf({ 'xml:base': '../z/' }, 'https://a.example/x/y/').url; // 'https://a.example/x/z/'
 * ```
 */
export function baseOf(
  attributes: Readonly<Record<string, string>>,
  parentBase: string,
): { url: string; obsolete: boolean; invalid: string | null } {
  const own = attributes['xml:base'];
  const value = own ?? attributes['baseurl'];
  const obsolete = own === undefined && value !== undefined;
  if (value === undefined) return { url: parentBase, obsolete, invalid: null };
  const resolved = URL.parse(value.trim(), parentBase);
  if (resolved === null) return { url: parentBase, obsolete, invalid: value };
  return { url: resolved.href, obsolete, invalid: null };
}

/**
 * The inherited values at an element: its parent's, with its own (`lang` also as
 * `xml:lang`) on top; an empty value clears one. Only elements of the namespace set them.
 *
 * @example
 * ```ts
 * inheritedOf({ lang: 'de' }, { lang: 'en', type: 'text/html' }, true); // { lang: 'de', type: 'text/html' }
 * ```
 */
export function inheritedOf(
  attributes: Readonly<Record<string, string>>,
  parent: InheritedValues,
  inNamespace: boolean,
): InheritedValues {
  const inherited: InheritedValues = { ...parent };
  if (!inNamespace) return inherited;
  for (const key of INHERITED_KEYS) {
    const value = attributes[key] ?? (key === 'lang' ? attributes['xml:lang'] : undefined);
    if (value !== undefined) inherited[key] = value.trim() === '' ? null : value.trim();
  }
  return inherited;
}

/**
 * `xlink:href`, found by the XLink namespace whatever the prefix; `xlink:` without a
 * declaration is read as XLink too (`undeclared`, for a warning).
 *
 * @example
 * ```ts
 * xlinkHrefOf({ 'l:href': '#faq' }, scope); // { href: '#faq', undeclared: false } when l is XLink
 * ```
 */
export function xlinkHrefOf(
  attributes: Readonly<Record<string, string>>,
  scope: NamespaceScope,
): { href: string | null; undeclared: boolean } {
  for (const key in attributes) {
    const colon = key.indexOf(':');
    if (colon < 0 || key.slice(colon + 1) !== 'href') continue;
    const prefix = key.slice(0, colon).toLowerCase();
    const ns = scope.resolve(prefix);
    const href = attributes[key] as string;
    if (ns === XLINK_NS) return { href, undeclared: false };
    if (ns === undefined && prefix === 'xlink') return { href, undeclared: true };
  }
  return { href: null, undeclared: false };
}

/**
 * The namespace bindings an element declares (prefix as written, '' for the default), or
 * null when it declares none.
 *
 * @example
 * ```ts
 * declarationsOf({ 'xmlns:h': 'http://www.w3.org/1999/xhtml' }); // { h: 'http://www.w3.org/1999/xhtml' }
 * ```
 */
export function declarationsOf(
  attributes: Readonly<Record<string, string>>,
): Record<string, string> | null {
  let out: Record<string, string> | null = null;
  for (const key in attributes) {
    if (key === 'xmlns' || key.startsWith('xmlns:')) {
      out ??= {};
      out[key === 'xmlns' ? '' : key.slice(6)] = attributes[key] as string;
    }
  }
  return out;
}
