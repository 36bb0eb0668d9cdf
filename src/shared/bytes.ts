/** Joins byte chunks into one array (the chunk itself when there is only one). */
export function concatBytes(chunks: readonly Uint8Array[], length?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(length ?? chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Reads at most `limit` bytes of a body, then stops reading (which closes the connection). */
export async function readUpTo(
  body: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    const take = Math.min(chunk.length, limit - length);
    chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
    length += take;
    if (length >= limit) break;
  }
  return concatBytes(chunks, length);
}
