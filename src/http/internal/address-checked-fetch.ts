// The transport behind `blockPrivateAddresses`: a fetch-shaped function over node:http and
// node:https whose connections can only reach public addresses. The check sits where the
// address is chosen, in the socket's `lookup`, so what is checked is what is connected to:
// a name that resolves to a public address for a pre-check and to 127.0.0.1 for the
// connection (DNS rebinding) is still refused. IP literals skip `lookup` in node:net, so they
// are checked here before the request.
//
// Why not the global fetch with an undici `Agent({ connect: { lookup } })` as `dispatcher`:
// Node exposes no constructor for its bundled undici's Agent, and an Agent from the npm
// `undici` package is only accepted by a global fetch of the same major (an undici 8 Agent
// makes Node 22's fetch throw, Node 26 rejects older ones), so it would tie waymark to Node
// versions and add a dependency. node:http's own `lookup` option needs neither.

import { lookup as dnsLookup } from 'node:dns';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { type AgentPool, keepAliveAgent, requestFor } from '../../shared/node/http-modules.ts';
import type { FetchFunction } from '../fetch-with-limits.ts';
import { blockedAddressReason, isIpLiteral } from './address-policy.ts';
import { decodersFor } from './content-decoders.ts';

/** A target refused by the address policy; the fetch turns it into `blocked-address`. */
export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** Statuses whose response has no body (a Response cannot be built with one). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);
/** What fetch itself asks for; the body is handed over decoded, as fetch does. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Why an address may not be connected to, or null when it may. */
export type AddressPolicy = (address: string) => string | null;

/**
 * Connection pools, one pair per policy, so no socket opened under another check (or none)
 * is ever reused. Made on first use: importing waymark opens nothing. No proxy is used.
 */
const pools = new WeakMap<AddressPolicy, AgentPool>();

function agentFor(policy: AddressPolicy, secure: boolean): HttpAgent {
  let pool = pools.get(policy);
  if (pool === undefined) {
    pool = {};
    pools.set(policy, pool);
  }
  return keepAliveAgent(pool, secure);
}

/**
 * A `lookup` for node:net that resolves as `dns.lookup` does and keeps only the addresses
 * `policy` allows; when none is left, fails with a {@link BlockedAddressError}.
 */
export function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      const allowed = addresses.filter(({ address }) => policy(address) === null);
      const first = allowed[0];
      if (first === undefined) {
        const refused = addresses.map(({ address }) => `${address}: ${policy(address)}`);
        const error = new BlockedAddressError(
          `${hostname} resolves only to addresses that are not public (${refused.join('; ') || 'none'})`,
        );
        callback(error as NodeJS.ErrnoException, '', 0);
        return;
      }
      if (options.all === true) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * Refuses a URL whose host is an IP literal that `policy` refuses (node:net connects to a
 * literal without calling `lookup`). Names pass: their addresses are checked at connect.
 */
export function checkLiteralHost(url: string, policy: AddressPolicy = blockedAddressReason): void {
  const host = new URL(url).hostname;
  if (!isIpLiteral(host)) return;
  const reason = policy(host);
  if (reason !== null) throw new BlockedAddressError(`${host} is ${articled(reason)} address`);
}

function articled(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/**
 * A GET over node:http(s) that connects only to addresses `policy` allows. Same shape as
 * waymark's other fetches: never follows redirects, honours `init.signal`, hands the body
 * over after undoing `Content-Encoding` (gzip, deflate, br), as fetch does.
 */
export function addressCheckedFetch(policy: AddressPolicy): FetchFunction {
  const lookup = checkedLookup(policy);
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      checkLiteralHost(url, policy);
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const headers = new Headers(init.headers);
      if (!headers.has('accept-encoding')) headers.set('accept-encoding', ACCEPT_ENCODING);
      const request = requestFor(secure)(target, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        agent: agentFor(policy, secure),
        lookup,
        ...(init.signal ? { signal: init.signal } : {}),
      });
      request.once('error', reject);
      request.once('response', (incoming) => {
        try {
          resolve(toResponse(incoming));
        } catch (error) {
          incoming.destroy();
          reject(error);
        }
      });
      request.end();
    });
}

/** The transport of `blockPrivateAddresses`: public addresses only. */
export const publicOnlyFetch: FetchFunction = addressCheckedFetch(blockedAddressReason);

/** The Node response as a web `Response`; throws for a status fetch would not accept. */
function toResponse(incoming: IncomingMessage): Response {
  const status = incoming.statusCode ?? 0;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header the web Headers refuse is left out, as fetch would not show it either.
    }
  }
  if (NULL_BODY_STATUSES.has(status)) {
    incoming.resume();
    return new Response(null, { status, headers });
  }
  return new Response(bodyStream(incoming, headers.get('content-encoding')), { status, headers });
}

/**
 * The body as a pull stream (nothing is read before the consumer asks), decoded. Cancelling
 * it closes the connection.
 */
function bodyStream(incoming: IncomingMessage, encoding: string | null): ReadableStream {
  const decoders = decodersFor(encoding);
  const source: Readable =
    decoders.length === 0
      ? incoming
      : (pipeline([incoming, ...decoders], () => {}) as unknown as Readable);
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else
          controller.enqueue(
            new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength),
          );
      },
      async cancel() {
        incoming.destroy();
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
