// The site benchmark's content root: a folder of Markdown documents shaped like a real docs
// and blog site. Nested folders of varied depth, `.md` and some `.markdown`, a share of
// sidecars (`<file>.meta.yaml`) with titles and aliases, some documents kept out of the
// sitemap (`noindex`, `access: restricted` or `deny`, a broken sidecar), files that are not documents, and modification
// times spread over three years. Everything follows from the document's number, so two runs
// write the same tree.

import { mkdirSync } from 'node:fs';
import { rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { seededRandom } from '../../src/test-support/seeded-random.ts';

/** Files written at once: enough to keep the disk busy, few enough for any fd limit. */
const WRITE_CONCURRENCY = 64;
const SECTIONS = [
  'guides',
  'reference',
  'blog',
  'products',
  'support',
  'news',
  'tutorials',
  'developers',
  'changelog',
  'community',
];
const WORDS = [
  'install',
  'configure',
  'deploy',
  'search',
  'cache',
  'billing',
  'account',
  'export',
  'import',
  'sync',
  'webhooks',
  'limits',
  'teams',
  'reports',
  'mobile',
  'security',
];
const DAY_MS = 86_400_000;
/** The newest modification time: fixed, so the sitemap's lastmods do not depend on today. */
const NEWEST_MS = Date.UTC(2026, 9, 1);
const SPREAD_DAYS = 3 * 365;

export interface ContentSummary {
  /** Markdown documents written. */
  readonly documents: number;
  /** Documents a sitemap should list: the public ones without `noindex`. */
  readonly listed: number;
  readonly sidecars: number;
  readonly aliases: number;
  /** Listed documents with an alias: the sitemap names them there, not at `/id/<hex>`. */
  readonly listedAliases: number;
  readonly noindex: number;
  /** Documents whose sidecar sets `access: restricted` or `deny`. */
  readonly restricted: number;
  /** Documents whose sidecar has an invalid value, which keeps them out. */
  readonly broken: number;
  /** Files that are not documents (images, text, a stray YAML file). */
  readonly otherFiles: number;
  readonly folders: number;
  /** Bytes of Markdown and sidecars. */
  readonly bytes: number;
  readonly ms: number;
}

interface DocumentPlan {
  readonly path: string;
  readonly markdown: string;
  readonly sidecar: string | null;
  readonly mtime: Date;
  readonly listed: boolean;
  readonly alias: boolean;
  readonly noindex: boolean;
  readonly restricted: boolean;
  readonly broken: boolean;
}

/** Writes `documents` documents (and the other files) under `root`, which must exist. */
export async function generateContentRoot(
  root: string,
  documents: number,
): Promise<ContentSummary> {
  const started = performance.now();
  const plans = Array.from({ length: documents }, (_, i) => planDocument(i));
  const others = otherFiles(documents);
  const folders = new Set([...plans, ...others].map((f) => dirname(join(root, f.path))));
  for (const folder of folders) mkdirSync(folder, { recursive: true });

  let bytes = 0;
  await forEachLimited(plans, WRITE_CONCURRENCY, async (plan) => {
    const file = join(root, plan.path);
    await writeFile(file, plan.markdown);
    await utimes(file, plan.mtime, plan.mtime);
    bytes += Buffer.byteLength(plan.markdown);
    if (plan.sidecar !== null) {
      await writeFile(`${file}.meta.yaml`, plan.sidecar);
      await utimes(`${file}.meta.yaml`, plan.mtime, plan.mtime);
      bytes += Buffer.byteLength(plan.sidecar);
    }
  });
  await forEachLimited(others, WRITE_CONCURRENCY, (other) =>
    writeFile(join(root, other.path), other.content),
  );

  const count = (pick: (p: DocumentPlan) => boolean) => plans.filter(pick).length;
  return {
    documents,
    listed: count((p) => p.listed),
    sidecars: count((p) => p.sidecar !== null),
    aliases: count((p) => p.alias),
    listedAliases: count((p) => p.alias && p.listed),
    noindex: count((p) => p.noindex),
    restricted: count((p) => p.restricted),
    broken: count((p) => p.broken),
    otherFiles: others.length,
    folders: folders.size,
    bytes,
    ms: performance.now() - started,
  };
}

/**
 * Adds one public document with an alias (sidecar first, then the Markdown under a temporary
 * name renamed into place, so the handler never sees half of it). Returns the alias, which
 * the sitemap should soon name, and how to take the document away again.
 */
export async function addDocument(
  root: string,
  stamp: string,
): Promise<{ alias: string; remove: () => Promise<void> }> {
  const alias = `fresh/live-check-${stamp}`;
  const file = join(root, 'news', `live-check-${stamp}.md`);
  mkdirSync(dirname(file), { recursive: true });
  await writeFile(`${file}.meta.yaml`, `title: Live check ${stamp}\nalias: ${alias}\n`);
  await writeFile(`${file}.tmp`, `# Live check ${stamp}\n\nAdded while the server runs.\n`);
  await rename(`${file}.tmp`, file);
  return {
    alias,
    remove: async () => {
      await rm(file);
      await rm(`${file}.meta.yaml`);
    },
  };
}

function planDocument(i: number): DocumentPlan {
  const random = seededRandom(i + 1);
  const section = SECTIONS[i % SECTIONS.length] ?? 'guides';
  const group = `${WORDS[Math.floor(i / SECTIONS.length) % WORDS.length]}`;
  // Folders 1 to 4 deep: section/slug, section/group/slug, .../part-N/slug, .../yyyy/slug.
  const depth = 1 + Math.floor(random() * 4);
  const folders = [section, group, `part-${Math.floor(i / 500) % 10}`, `${2019 + (i % 7)}`];
  const words = [pick(WORDS, random), pick(WORDS, random), pick(WORDS, random)];
  const slug = `${words.join('-')}-${i}`;
  const extension = random() < 0.05 ? '.markdown' : '.md';
  const path = [...folders.slice(0, depth), `${slug}${extension}`].join('/');
  const title = `${capitalise(words.join(' '))} (${section} ${i})`;
  const mtime = new Date(NEWEST_MS - Math.floor(random() * SPREAD_DAYS * DAY_MS));

  // 30% have a sidecar: two thirds of those an alias, 1% of all an id of their own; 4% of all
  // noindex, 3% restricted or denied, 0.5% a broken sidecar (which keeps a document private).
  const roll = random();
  const hasSidecar = roll < 0.3;
  const noindex = roll < 0.04;
  const restricted = roll >= 0.04 && roll < 0.07;
  const broken = roll >= 0.07 && roll < 0.075;
  const ownId = roll >= 0.075 && roll < 0.085;
  const alias = hasSidecar && random() < 2 / 3;
  const sidecar = hasSidecar
    ? [
        `title: ${JSON.stringify(title)}`,
        alias ? `alias: ${section}/${group}/${slug}` : null,
        ownId ? `id: ${(0x10000000 + i).toString(16)}` : null,
        noindex ? 'noindex: true' : null,
        restricted
          ? random() < 0.5
            ? 'access: deny'
            : 'access: restricted\nroles: [members]'
          : null,
        broken ? 'noindex: perhaps' : null,
        '',
      ]
        .filter((line) => line !== null)
        .join('\n')
    : null;
  return {
    path,
    markdown: markdownOf(title, words, random),
    sidecar,
    mtime,
    listed: !noindex && !restricted && !broken,
    alias,
    noindex,
    restricted,
    broken,
  };
}

function markdownOf(title: string, words: readonly string[], random: () => number): string {
  const paragraphs = 2 + Math.floor(random() * 4);
  const lines = [`# ${title}`, ''];
  for (let p = 0; p < paragraphs; p++) {
    lines.push(
      `How to ${words[p % words.length]} with the ${words[(p + 1) % words.length]} settings: ` +
        'open the dashboard, choose the project, and follow the steps below. Changes apply ' +
        'within a minute; nothing is lost if you cancel halfway.',
      '',
    );
    if (random() < 0.3) lines.push(`- [Related: ${words[0]}](../${words[0]}.md)`, '');
  }
  return lines.join('\n');
}

/** Per 1,000 documents: an image, a text file and a stray YAML file, none of them documents. */
function otherFiles(documents: number): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  for (let i = 0; i < Math.max(1, Math.floor(documents / 1000)); i++) {
    const folder = `${SECTIONS[i % SECTIONS.length]}/assets-${i}`;
    files.push(
      { path: `${folder}/diagram.png`, content: '\x89PNG\r\n\x1a\n' },
      { path: `${folder}/notes.txt`, content: 'Not a document.\n' },
      { path: `${folder}/settings.yaml`, content: 'alias: not/a/document\n' },
    );
  }
  return files;
}

async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)] as T;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
