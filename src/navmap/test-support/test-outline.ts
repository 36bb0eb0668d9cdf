// Test helper: a tree as compact lines, one per node, so a test can state a whole tree.
import type { NavmapNode, NavmapTree } from '../types.ts';

/**
 * `label <url>` per node, indented two spaces a level, with markers: `!` not in the tree
 * (tree="exclude"), `*` repeated (loop), `?` an external placeholder.
 */
export function outline(tree: NavmapTree): string[] {
  const out: string[] = [];
  const walk = (nodes: readonly NavmapNode[], depth: number) => {
    for (const node of nodes) {
      const marks = `${node.inTree ? '' : '!'}${node.repeated ? '*' : ''}${node.kind === 'external' ? '?' : ''}`;
      const url = node.url === null ? '' : ` <${node.url}>`;
      out.push(`${'  '.repeat(depth)}${marks}${node.label ?? '-'}${url}`);
      walk(node.children, depth + 1);
    }
  };
  walk(tree.root?.children ?? [], 0);
  return out;
}

/** The codes of a tree's diagnostics, in order. */
export function codes(tree: NavmapTree): string[] {
  return tree.diagnostics.map((d) => d.code);
}
