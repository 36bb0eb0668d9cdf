// The only way the page makes elements. Every string from the report data goes in as text
// (textContent or a text node) or as a plain attribute value, never as markup: the data
// comes from a hostile site.

type Child = Node | string | null | undefined | false;

export interface ElementProps {
  readonly className?: string;
  readonly id?: string;
  readonly text?: string;
  /** Plain attributes (never event handlers or styles). */
  readonly attrs?: Readonly<Record<string, string>>;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className !== undefined) element.className = props.className;
  if (props.id !== undefined) element.id = props.id;
  if (props.text !== undefined) element.textContent = props.text;
  if (props.attrs !== undefined) {
    for (const [name, value] of Object.entries(props.attrs)) element.setAttribute(name, value);
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

const SVG = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | number>> = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A link to a crawled URL: only http(s) becomes a link (no `javascript:` from hostile data). */
export function urlLink(url: string, text: string = url): HTMLElement {
  if (!/^https?:\/\//i.test(url)) return el('span', { text });
  return el('a', {
    text,
    attrs: { href: url, rel: 'noopener noreferrer nofollow', target: '_blank' },
  });
}

let nextId = 0;
/** A page-unique id for labels and aria references. */
export function uniqueId(prefix: string): string {
  nextId++;
  return `${prefix}-${nextId}`;
}

/** Calls `action` once input has paused for `ms`. */
export function debounce(action: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      action();
    }, ms);
  };
}

/** A heading with an id, so verdicts and the nav can link to it. */
export function section(id: string, title: string, level: 'h2' | 'h3' = 'h2'): HTMLElement {
  const tag = level === 'h2' ? 'section' : 'div';
  return el(tag, { id, className: level === 'h2' ? 'report-section' : 'subsection' }, [
    el(level, { text: title }),
  ]);
}

/** A definition list from label/value pairs (values as text or nodes). */
export function facts(pairs: readonly (readonly [string, Node | string])[]): HTMLElement {
  const list = el('dl', { className: 'facts' });
  for (const [label, value] of pairs) {
    list.append(el('dt', { text: label }), el('dd', {}, [value]));
  }
  return list;
}
