import { utf8Length } from '../../shared/xml/xml-escape.ts';
import { textResponse } from './chunked-body.ts';

/**
 * A short plain-text answer (an error or a refusal), with its length; no body for HEAD.
 *
 * @example
 * ```ts
 * plainResponse(404, 'Not found\n', false).status; // 404
 * ```
 */
export function plainResponse(status: number, text: string, head: boolean): Response {
  return textResponse(head ? null : text, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(utf8Length(text)),
      // A refusal or an error is no answer to keep: 404 is cacheable by heuristic otherwise.
      'cache-control': 'no-cache',
    },
  });
}
