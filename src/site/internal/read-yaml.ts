import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// The `yaml` library is taken on the first text that needs it, not when waymark/site is
// imported: it is about 10 MB of resident memory once loaded, and a root whose sidecars are
// all of the common form (see quickSidecar) and that has no waymark.site.yaml never needs
// it. `require` because readYaml is synchronous; in Node, `import 'yaml'` loads this very
// CommonJS build too (its "node" export), so both ways give the one instance.
let library: typeof Yaml | null = null;
function yaml(): typeof Yaml {
  library ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return library;
}

/** Where in a YAML text something is: 1-based line and column. */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/** A problem that made the text unusable, with the position it was found at. */
export interface YamlProblem extends YamlPosition {
  readonly message: string;
}

/** What {@link readYaml} made of a text: its value (null when unusable) and why not. */
export interface YamlReading {
  readonly value: unknown;
  readonly problems: readonly YamlProblem[];
  /** For a top-level mapping, where each scalar key stands (for diagnostics on its value). */
  readonly keyPositions: ReadonlyMap<string, YamlPosition>;
}

export interface ReadYamlOptions {
  /** `failsafe` reads every scalar as text; `core` is YAML 1.2's default. */
  readonly schema: 'failsafe' | 'core';
  /**
   * Bounds alias expansion (yaml's `maxAliasCount`): a small text whose aliases nest
   * ("billion laughs") would otherwise expand to gigabytes.
   */
  readonly maxAliasCount: number;
}

const START: YamlPosition = { line: 1, column: 1 };

/**
 * Reads a YAML text and never throws. The `yaml` library reports syntax errors with
 * positions, but throws from `toJS()` for an alias whose anchor is not set before it
 * (`title: *x`) and for excessive alias expansion; both become problems here, placed at
 * the alias that caused them, so a caller can report file and line.
 */
export function readYaml(text: string, options: ReadYamlOptions): YamlReading {
  const { isMap, isScalar, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const at = (offset: number | undefined): YamlPosition => {
    if (offset === undefined) return START;
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  let doc: Yaml.Document.Parsed;
  try {
    doc = parseDocument(text, {
      schema: options.schema,
      prettyErrors: false,
      uniqueKeys: true,
      lineCounter: lines,
    });
  } catch (error) {
    // Not known to happen; a parser bug must not make a document public or stop the server.
    return unusable({ message: (error as Error).message, ...START });
  }
  if (doc.errors.length > 0) {
    return unusable(...doc.errors.map((e) => ({ message: e.message, ...at(e.pos[0]) })));
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: options.maxAliasCount });
  } catch (error) {
    return unusable({ message: (error as Error).message, ...at(culpritAlias(doc)) });
  }
  const keyPositions = new Map<string, YamlPosition>();
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (isScalar(pair.key) && typeof pair.key.value === 'string') {
        keyPositions.set(pair.key.value, at(pair.key.range?.[0]));
      }
    }
  }
  return { value, problems: [], keyPositions };
}

function unusable(...problems: YamlProblem[]): YamlReading {
  return { value: null, problems, keyPositions: new Map() };
}

/**
 * The offset of the alias that made `toJS()` throw: the first one whose anchor is not set
 * before it, else the first alias at all (the expansion limit counts them together).
 */
function culpritAlias(doc: Yaml.Document.Parsed): number | undefined {
  const anchors = new Set<string>();
  let first: number | undefined;
  let unresolved: number | undefined;
  const { isAlias, visit } = yaml();
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      const offset = node.range?.[0];
      first ??= offset;
      if (!anchors.has(node.source)) {
        unresolved = offset;
        return visit.BREAK;
      }
    } else if (node !== null && typeof node === 'object' && 'anchor' in node) {
      const anchor = (node as { anchor?: string }).anchor;
      if (typeof anchor === 'string') anchors.add(anchor);
    }
    return undefined;
  });
  return unresolved ?? first;
}
