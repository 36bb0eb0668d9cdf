import { escapeXmlAttribute, escapeXmlText } from '../../shared/xml/xml-escape.ts';

/**
 * One element to write. Values are already checked (no character XML 1.0 forbids) and
 * are escaped here, so no caller can forget to.
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes?: readonly (readonly [name: string, value: string])[];
  readonly text?: string;
  readonly children?: readonly XmlElement[];
}

/**
 * The element as markup. With `indent` (pretty output) each element gets its own line at
 * `depth` levels; without it the element is written on one line with no whitespace added,
 * so text content is never padded either way.
 */
export function serializeElement(element: XmlElement, indent: string | null, depth = 0): string {
  const pad = indent === null ? '' : indent.repeat(depth);
  const newline = indent === null ? '' : '\n';
  let open = `<${element.name}`;
  for (const [name, value] of element.attributes ?? []) {
    open += ` ${name}="${escapeXmlAttribute(value)}"`;
  }
  const children = element.children ?? [];
  if (children.length > 0) {
    let inner = '';
    for (const child of children) inner += serializeElement(child, indent, depth + 1);
    return `${pad}${open}>${newline}${inner}${pad}</${element.name}>${newline}`;
  }
  if (element.text === undefined) return `${pad}${open}/>${newline}`;
  return `${pad}${open}>${escapeXmlText(element.text)}</${element.name}>${newline}`;
}

/** An element holding only text. */
export function leaf(name: string, text: string): XmlElement {
  return { name, text };
}
