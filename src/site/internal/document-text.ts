import type { OpenedDocument } from './open-document.ts';

/** Larger Markdown files are not rendered (nor read for their heading): a page is text someone wrote. */
export const MAX_MARKDOWN_BYTES = 8 * 1024 * 1024;

/** The opened file as UTF-8, its first `maxBytes` at most (it was checked against them). */
export async function readText(opened: OpenedDocument, maxBytes: number): Promise<string | null> {
  const size = Math.min(opened.stat.size, maxBytes);
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const { bytesRead } = await opened.handle.read(buffer, length, size - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.toString('utf8', 0, length);
}
