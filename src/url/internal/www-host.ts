/**
 * `hostname` without a leading `www.` label, when at least two labels remain: `www.com` and
 * `www.` stay as they are, since the label is then the name itself rather than a prefix.
 * Only `www.` is removed (not `www2.` or `m.`): those often serve different content.
 *
 * @example
 * ```ts
 * stripWww('www.example.com'); // 'example.com'
 * stripWww('www.com'); // 'www.com'
 * ```
 */
export function stripWww(hostname: string): string {
  if (!hostname.startsWith('www.')) return hostname;
  const rest = hostname.slice(4);
  const dot = rest.indexOf('.');
  // A dot that only ends a fully qualified name (`com.`) does not make a second label.
  return dot > 0 && dot < rest.length - 1 ? rest : hostname;
}
