import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  explainNavmapDiscovery,
  loadNavmap,
  loadNavmapFile,
  type NavmapDiscoveryStep,
  type NavmapFormat,
  type NavmapTree,
  parseNavmap,
  renderNavmap,
} from '../../navmap/index.ts';
import { printable } from '../../shared/printable.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { diagnosticText } from '../internal/diagnostic-output.ts';
import { displayName, eachLine, readInput } from '../internal/input.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark navmap';

const HELP = `Find the navigational sitemap (standard-sitemap) a page names and print its outline.

Usage: ${NAME} <page-url|file> [options]

Arguments:
  <page-url|file>       a page URL (fetched), a saved page, or a navigational sitemap file

Options:
      --json            print the whole tree as JSON
      --html            print the tree as a nested <nav><ul> to embed in a page
      --headers <file>  the saved page's response headers ("Name: value" lines; a status
                        line is skipped); without it the file is taken as text/html
      --base <url>      the saved file's URL (default: its file: URL); a file: URL also
                        lets the page name local files in that URL's folder or below
      --user-agent <ua> User-Agent for every fetch (default waymark/<version>)
  -h, --help            show this help

A file whose root element is <sitemap> in the standard-sitemap namespace is read directly,
with --base as its URL. Only locations the page names are ever fetched. A saved page reads
no other local file unless --base is a file: URL, and then only files in that URL's folder
or below (after symbolic links are resolved).
Problems go to stderr as source:line: severity: message.
Exit status: 0 when printed without errors, 1 when the page names no navigational sitemap
or a document had errors, 2 on a usage error, 3 when the page cannot be fetched.
`;

const STEP_NAMES: Readonly<Record<string, string>> = {
  'opt-header': 'Opt header (RFC 2774) and its NN-Location header',
  'legacy-header': 'X-Standard-Sitemap-Location header',
  link: '<link rel="schema.p"> with <link rel="p.location">',
  'legacy-link': '<link rel="standard-sitemap">',
  preference: 'user preference',
};

export const navmapCommand: CliCommand = {
  summary: 'find the navigational sitemap a page names and print its outline',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      json: { type: 'boolean' },
      html: { type: 'boolean' },
      headers: { type: 'string' },
      base: { type: 'string' },
      'user-agent': { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [source, ...extra] = positionals;
    if (source === undefined) throw usageError(NAME, 'missing the page URL or file');
    if (extra.length > 0) throw usageError(NAME, `one page at a time (got ${positionals.length})`);
    if (values.json && values.html) throw usageError(NAME, '--json and --html exclude each other');
    if (values.base !== undefined && !URL.canParse(values.base)) {
      throw usageError(NAME, `--base is not an absolute URL: ${values.base}`);
    }
    const format: NavmapFormat = values.json ? 'json' : values.html ? 'html' : 'text';
    const userAgent = values['user-agent'] ?? `waymark/${io.version}`;

    const isUrl = /^https?:\/\//i.test(source);
    if (isUrl && values.headers !== undefined) {
      throw usageError(NAME, '--headers is for a saved page, not a URL');
    }
    const tree = isUrl
      ? await fromUrl(source, userAgent, io)
      : await fromFile(source, values.base, values.headers, userAgent, io);
    if (tree === null) return EXIT_PROBLEMS;
    return print(tree, format, io);
  },
};

async function fromUrl(url: string, userAgent: string, io: CliIo): Promise<NavmapTree | null> {
  const load = await loadNavmap(url, { userAgent });
  if (load.tree === null) {
    io.stderr(notFound(load.page.url, load.discovery.steps));
    return null;
  }
  return load.tree;
}

async function fromFile(
  file: string,
  base: string | undefined,
  headersFile: string | undefined,
  userAgent: string,
  io: CliIo,
): Promise<NavmapTree | null> {
  const body = await readInput(file, io);
  const url = base ?? (file === '-' ? 'file:///stdin' : pathToFileURL(resolve(file)).href);
  const headers =
    headersFile === undefined
      ? []
      : headerLines(await readInput(headersFile, io), displayName(headersFile));
  const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  // The saved response's charset overrides the file's XML declaration, as it would have.
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  const read = charset === undefined ? {} : { charset };
  const asNavmap = parseNavmap(body, { url, ...read });
  if (asNavmap.root !== null) {
    // A navigational sitemap itself: its externals are fetched when its URL is http(s).
    return /^https?:/i.test(url) ? loadNavmapFile(url, { body, userAgent, ...read }) : asNavmap;
  }
  if (contentType === undefined) headers.push(['content-type', 'text/html']);
  const { location, steps } = await explainNavmapDiscovery({ url, headers, body });
  if (location === null) {
    io.stderr(notFound(displayName(file), steps));
    return null;
  }
  if (/^https?:/i.test(location.url)) return loadNavmapFile(location.url, { userAgent });
  const path = location.url.startsWith('file:') ? localPath(location.url) : null;
  if (path === null) {
    io.stderr(
      `${NAME}: cannot read ${printable(location.url)}: only http(s) and local file: URLs are read\n`,
    );
    return null;
  }
  const allowed = await fileInScope(path, base);
  if ('refused' in allowed) {
    io.stderr(`${NAME}: not reading ${printable(location.url)}: ${allowed.refused}\n`);
    return null;
  }
  return parseNavmap(await readInput(allowed.path, io), { url: location.url });
}

/**
 * Whether a saved page may make waymark read the local file at `path`: only with a file:
 * `--base`, and then only a file in that URL's folder or below, both sides with symbolic
 * links resolved (so neither `..`, an absolute path nor a link leads out). Gives the real
 * path to read, or why not.
 */
async function fileInScope(
  path: string,
  base: string | undefined,
): Promise<{ readonly path: string } | { readonly refused: string }> {
  if (base === undefined || URL.parse(base)?.protocol !== 'file:') {
    const why =
      base === undefined
        ? 'a saved page names local files only with a file: --base'
        : 'the page is not a local file (--base is not a file: URL)';
    return {
      refused: `${why}; to let it name files in its folder or below, pass --base with the page's file: URL`,
    };
  }
  const folder = localPath(new URL('.', base).href);
  if (folder === null) return { refused: `--base ${printable(base)} is not a local file` };
  let root: string;
  let target: string;
  try {
    root = await realpath(folder);
  } catch {
    return { refused: `the folder of --base (${printable(folder)}) cannot be read` };
  }
  try {
    target = await realpath(path);
  } catch {
    return { refused: 'no such file' };
  }
  const inside = relative(root, target);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return {
      refused: `it is outside the folder of --base (${printable(root)}); a saved page may only name files in its folder or below`,
    };
  }
  return { path: target };
}

/** The path of a local `file:` URL; null for one on another host (`file://server/x`). */
function localPath(url: string): string | null {
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

/** `Name: value` lines of a saved response; a status line and anything else is skipped. */
function headerLines(bytes: Uint8Array, name: string): [string, string][] {
  const out: [string, string][] = [];
  eachLine(new TextDecoder().decode(bytes), (line) => {
    const colon = line.indexOf(':');
    if (colon <= 0 || /^HTTP\//i.test(line)) return;
    const field = line.slice(0, colon).trim();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(field)) return;
    if (out.length === MAX_HEADER_FIELDS) {
      throw usageError(
        NAME,
        `${printable(name)} holds more than ${MAX_HEADER_FIELDS} header fields, more than responses have`,
      );
    }
    out.push([field, line.slice(colon + 1).trim()]);
  });
  return out;
}

/** The most header fields read from `--headers`: Node's HTTP client keeps 2,000 a response. */
const MAX_HEADER_FIELDS = 2_000;

function notFound(page: string, steps: readonly NavmapDiscoveryStep[]): string {
  const lines = steps.map(
    (s) =>
      `  ${s.step}. ${STEP_NAMES[s.via] ?? s.via}: ${s.outcome === 'skipped' ? 'skipped, ' : ''}${printable(s.detail)}`,
  );
  return `${NAME}: ${printable(page)} names no navigational sitemap (nothing else is guessed). Tried:\n${lines.join('\n')}\n`;
}

function print(tree: NavmapTree, format: NavmapFormat, io: CliIo): number {
  let failed = tree.root === null;
  for (const d of tree.diagnostics) {
    io.stderr(diagnosticText(d.url, d));
    if (d.severity === 'error') failed = true;
  }
  if (tree.root !== null) io.stdout(renderNavmap(tree, format));
  return failed ? EXIT_PROBLEMS : EXIT_OK;
}
