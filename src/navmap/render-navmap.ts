import { printable } from '../shared/printable.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import { escapeHtml, isLinkable, quietJson } from './internal/safe-output.ts';
import type { NavmapNode, NavmapTree, NavmapVariant } from './types.ts';

/** The output formats of {@link renderNavmap}. */
export type NavmapFormat = 'text' | 'json' | 'html';

/**
 * Renders a tree. `text` is an indented outline (two spaces a level) followed by the role
 * index; `json` is the whole tree, stable (keys in a fixed order, two-space indent);
 * `html` is a nested `<nav><ul>` a site can embed (a `sequence` group is an `<ol>`).
 * Nodes with `tree="exclude"` are left out of `text` and `html` (they stay in the role
 * index and in `json`).
 *
 * The output is safe to print and to embed whatever the sitemap contains: `text` shows
 * control characters (and bidi controls) as `\x1b`-style escapes, so a label cannot drive
 * the terminal; `json` writes them as `\u` escapes; `html` escapes every value, and only
 * `http:`, `https:` and `mailto:` URLs become links (a node with a `javascript:` or `data:`
 * URL is shown by its label, without a link: never as an `href`).
 *
 * @example
 * ```ts
 * renderNavmap(tree, 'text');
 * // Home <https://ex.org/index.html> {home}
 * //   Guide (sequence)
 * //     Part 1 <https://ex.org/guide/1.html>
 * ```
 */
export function renderNavmap(tree: NavmapTree, format: NavmapFormat): string {
  switch (format) {
    case 'text':
      return renderText(tree);
    case 'json':
      return `${quietJson(JSON.stringify(tree, null, 2))}\n`;
    case 'html':
      return renderHtml(tree);
    default:
      throw new WaymarkError('invalid-argument', `unknown navmap format: ${String(format)}`);
  }
}

function renderText(tree: NavmapTree): string {
  const lines: string[] = [];
  const walk = (nodes: readonly NavmapNode[], depth: number) => {
    for (const node of nodes) {
      if (!node.inTree) continue;
      lines.push(`${'  '.repeat(depth)}${printable(textLine(node))}`);
      walk(node.children, depth + 1);
    }
  };
  walk(tree.root?.children ?? [], 0);
  const roles = Object.entries(tree.roles);
  if (roles.length > 0) {
    lines.push('', 'Roles:');
    for (const [role, targets] of roles) {
      for (const target of targets) {
        lines.push(printable(`  ${role}: ${labelled(target.label, target.url)}`));
      }
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function textLine(node: NavmapNode): string {
  if (node.kind === 'external') return `[not loaded: ${node.url ?? ''}]`;
  const parts: string[] = [];
  if (node.label !== null || node.url !== null || node.variants.length === 0) {
    let own = labelled(node.label, node.url);
    if (node.relation !== null) own += ` (${node.relation})`;
    parts.push(own);
  }
  for (const variant of node.variants) {
    parts.push(
      `${labelled(variant.label, variant.url)}${variant.lang === null ? '' : ` [${variant.lang}]`}`,
    );
  }
  let line = parts.join(' | ');
  if (node.roles.length > 0) line += ` {${node.roles.join(' ')}}`;
  if (node.repeated) line += ' (repeated: loop)';
  return line;
}

function labelled(label: string | null, url: string | null): string {
  const name = label ?? (url === null ? '(untitled)' : '');
  if (url === null) return name;
  return name === '' ? `<${url}>` : `${name} <${url}>`;
}

function renderHtml(tree: NavmapTree): string {
  const out: string[] = [];
  const list = (nodes: readonly NavmapNode[], ordered: boolean, depth: number) => {
    const shown = nodes.filter((n) => n.inTree && n.kind !== 'external');
    if (shown.length === 0) return;
    const pad = '  '.repeat(depth);
    const tag = ordered ? 'ol' : 'ul';
    out.push(`${pad}<${tag}>`);
    for (const node of shown) {
      const children = node.children.some((c) => c.inTree && c.kind !== 'external');
      const line = `${pad}  <li>${htmlEntry(node)}`;
      if (!children) {
        out.push(`${line}</li>`);
        continue;
      }
      out.push(line);
      list(node.children, node.relation === 'sequence', depth + 2);
      out.push(`${pad}  </li>`);
    }
    out.push(`${pad}</${tag}>`);
  };
  const lang = tree.root?.lang;
  out.push(`<nav class="navmap"${lang ? ` lang="${escapeHtml(lang)}"` : ''}>`);
  list(tree.root?.children ?? [], false, 1);
  out.push('</nav>');
  return `${out.join('\n')}\n`;
}

function htmlEntry(node: NavmapNode): string {
  const parts: string[] = [];
  if (node.label !== null || node.url !== null || node.variants.length === 0) {
    parts.push(htmlLink(node.label ?? node.url ?? '', node.url, node));
  }
  for (const variant of node.variants)
    parts.push(htmlLink(variant.label ?? variant.url ?? '', variant.url, variant));
  return parts.join(' / ');
}

function htmlLink(label: string, url: string | null, values: NavmapNode | NavmapVariant): string {
  const text = escapeHtml(label);
  // A script or data URL from someone else's sitemap must not become clickable on this page.
  if (url === null || !isLinkable(url)) return `<span>${text}</span>`;
  let attributes = ` href="${escapeHtml(url)}"`;
  if (values.lang !== null) attributes += ` hreflang="${escapeHtml(values.lang)}"`;
  if (values.type !== null) attributes += ` type="${escapeHtml(values.type)}"`;
  if (values.target !== null) attributes += ` target="${escapeHtml(values.target)}"`;
  if (values.description !== null) attributes += ` title="${escapeHtml(values.description)}"`;
  return `<a${attributes}>${text}</a>`;
}
