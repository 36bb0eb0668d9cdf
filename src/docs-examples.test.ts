// Every TypeScript example in README.md and docs/ compiles under the project's strict settings,
// against the sources: each ```ts block becomes a module of its own, importing `waymark` and
// `waymark/*` as a user would, and the project's own tsc checks them all in one run.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Example {
  /** The Markdown file, relative to the repository. */
  readonly doc: string;
  /** The line of the block's first code line in `doc`. */
  readonly line: number;
  readonly code: string;
}

/** The Markdown files whose examples are checked: the README and every page under docs/. */
function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...docs.sort()];
}

/** The ```ts and ```typescript blocks of a Markdown file, list-item indentation removed. */
function extractExamples(doc: string, markdown: string): Example[] {
  const examples: Example[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})(ts|typescript)\s*$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const [, indent = '', fence = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && (lines[j] ?? '').trim() !== fence; j++) {
      const text = lines[j] ?? '';
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    examples.push({ doc, line: i + 2, code: body.join('\n') });
    i = j;
  }
  return examples;
}

/** An example that must not compile, so the check is known to be able to fail. */
const CONTROL: Example = {
  doc: '(control)',
  line: 1,
  code: "import { parseRobots } from 'waymark/robots';\nconst verdict: string = parseRobots('').isAllowed('/', 'a');",
};

/**
 * Modules the docs show waymark with but waymark does not depend on: the part of their
 * published API the examples use, so the examples are checked without installing them.
 */
const PEER_DECLARATIONS = `
declare module 'hono' {
  export interface Context {
    readonly req: { readonly raw: Request };
  }
  export class Hono {
    get(path: string, handler: (c: Context) => Response | Promise<Response>): this;
    fetch: (request: Request) => Response | Promise<Response>;
  }
}
`;

/** `waymark` and `waymark/*` mapped to the sources behind each package.json export. */
function exportPaths(): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue;
    const specifier = entry === '.' ? 'waymark' : `waymark/${entry.slice(2)}`;
    const source = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
    paths[specifier] = [join(ROOT, source)];
  }
  return paths;
}

/** Type-checks the examples in `dir` with the project's tsc; its output, one line a problem. */
async function typecheck(dir: string, examples: readonly Example[]): Promise<string[]> {
  const project = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  const files = examples.map((_, index) => `example-${index}.ts`);
  // `export {}` makes each block a module of its own, so their names never meet.
  examples.forEach((example, index) => {
    writeFileSync(join(dir, files[index] ?? ''), `${example.code}\nexport {};\n`);
  });
  writeFileSync(join(dir, 'peers.d.ts'), PEER_DECLARATIONS);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...project.compilerOptions,
        noEmit: true,
        typeRoots: [join(ROOT, 'node_modules/@types')],
        paths: exportPaths(),
      },
      files: [...files, 'peers.d.ts'],
    }),
  );
  // The project's own tsc, run by the Node that runs the tests.
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const args = [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'];
  const output = await promisify(execFile)(process.execPath, args, { cwd: dir }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
  );
  // "example-3.ts(5,10): error TS2304: ..." becomes "README.md:123:10: error TS2304: ...".
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) =>
      line.replace(/^example-(\d+)\.ts\((\d+),(\d+)\)/, (found, index, row, column) => {
        const example = examples[Number(index)];
        return example === undefined
          ? found
          : `${example.doc}:${example.line + Number(row) - 1}:${column}`;
      }),
    );
}

test('every TypeScript example in README.md and docs/ compiles under strict settings', async () => {
  const examples = docFiles().flatMap((doc) =>
    extractExamples(doc, readFileSync(join(ROOT, doc), 'utf8')),
  );
  assert.ok(examples.length >= 20, `only ${examples.length} examples found`);
  const dir = mkdtempSync(join(tmpdir(), 'waymark-docs-examples-'));
  try {
    const problems = await typecheck(dir, [...examples, CONTROL]);
    const control = problems.filter((line) => line.startsWith('(control):'));
    assert.match(control.join('\n'), /^\(control\):2:7: error TS2322: /, 'the check can fail');
    const rest = problems.filter((line) => !line.startsWith('(control):'));
    assert.deepEqual(rest, [], `examples that do not compile:\n${rest.join('\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
