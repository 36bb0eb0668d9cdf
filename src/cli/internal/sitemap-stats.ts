import type { Diagnostic } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import type { SitemapEntry, SitemapKind, SitemapUrl } from '../../sitemap/index.ts';

/** Counts for `waymark sitemap parse --stats`, kept as running totals (flat memory). */
export class SitemapStats {
  readonly #kinds = new Map<string, number>();
  #entries = 0;
  #withLastmod = 0;
  #oldest: string | null = null;
  #newest: string | null = null;
  #images = 0;
  #videos = 0;
  #news = 0;
  #alternates = 0;
  readonly #severities = { error: 0, warning: 0, info: 0 };

  document(kind: SitemapKind | null, diagnostics: readonly Diagnostic[]): void {
    const key = kind ?? 'not read';
    this.#kinds.set(key, (this.#kinds.get(key) ?? 0) + 1);
    for (const d of diagnostics) this.#severities[d.severity]++;
  }

  entry(entry: SitemapEntry): void {
    this.#entries++;
    const url = entry as SitemapUrl;
    if (url.lastmod !== undefined) {
      this.#withLastmod++;
      // Compare as instants: W3C values differ in precision and offset.
      const time = Date.parse(url.lastmod);
      if (this.#oldest === null || time < Date.parse(this.#oldest)) this.#oldest = url.lastmod;
      if (this.#newest === null || time > Date.parse(this.#newest)) this.#newest = url.lastmod;
    }
    this.#images += url.images?.length ?? 0;
    this.#videos += url.videos?.length ?? 0;
    this.#news += url.news === undefined ? 0 : 1;
    this.#alternates += url.alternates?.length ?? 0;
  }

  toJSON() {
    return {
      documents: Object.fromEntries(this.#kinds),
      entries: this.#entries,
      withLastmod: this.#withLastmod,
      lastmodRange: this.#oldest === null ? null : { oldest: this.#oldest, newest: this.#newest },
      images: this.#images,
      videos: this.#videos,
      news: this.#news,
      alternates: this.#alternates,
      diagnostics: { ...this.#severities },
    };
  }

  format(): string {
    const kinds = [...this.#kinds].map(([kind, n]) => `${n} ${kind}`).join(', ');
    const { error, warning, info } = this.#severities;
    return [
      `documents   ${kinds || 'none'}`,
      `entries     ${this.#entries}`,
      `lastmod     ${this.#withLastmod} entries${this.#oldest === null ? '' : `, ${printable(this.#oldest)} to ${printable(this.#newest ?? '')}`}`,
      `extensions  ${this.#images} images, ${this.#videos} videos, ${this.#news} news, ${this.#alternates} alternates`,
      `problems    ${error} errors, ${warning} warnings, ${info} notes`,
      '',
    ].join('\n');
  }
}
