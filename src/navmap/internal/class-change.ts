// `<class-change>` (and the obsolete `<change>`): how a page marks itself by display level.
// Read from the root's children only; it takes no part in the navigation walk.

import type { NavmapClassChange, NavmapDiagnostic } from '../types.ts';
import { namespacesAt, text } from './node-values.ts';
import type { RawElement } from './raw-document.ts';

/** Where a problem goes: severity, code, message (the caller knows the element's place). */
export type ReportProblem = (
  severity: NavmapDiagnostic['severity'],
  code: string,
  message: string,
) => void;

/**
 * The instruction a `class-change` element gives, with the namespace prefixes in scope for
 * its `elem` XPath; null (reported) when it has no `elem`.
 *
 * @example
 * ```ts
 * readClassChange(element, report);
 * // { elem: '/h:html/h:body', attr: 'class', prefix: 'nav', namespaces: { h: 'http://www.w3.org/1999/xhtml', ... } }
 * ```
 */
export function readClassChange(
  element: RawElement,
  report: ReportProblem,
): NavmapClassChange | null {
  if (element.name === 'change') {
    report('info', 'obsolete-form', 'the obsolete <change> is read as <class-change>');
  }
  const elem = element.attributes['elem']?.trim();
  if (elem === undefined || elem === '') {
    report('warning', 'class-change-without-elem', '<class-change> has no elem; ignored');
    return null;
  }
  return {
    elem,
    attr: text(element, 'attr'),
    prefix: text(element, 'prefix'),
    namespaces: namespacesAt(element),
  };
}
