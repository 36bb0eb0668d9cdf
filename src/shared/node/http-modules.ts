// node:http and node:https as their module objects, taken when first needed instead of
// imported.
//
// An ESM import of a built-in module reads every one of its exports to build the module's
// namespace, and node:http exports getters (WebSocket, CloseEvent, MessageEvent) that load
// Node's bundled undici: about 12 MB of resident memory and several ms in every process that
// imports node:http, whether it ever opens a WebSocket or not (nodejs/node#59686).
// `process.getBuiltinModule` hands over the module object and reads none of them. node:https
// brings TLS and its crypto with it (about 5 MB more), so it is taken only for an https URL.
import type * as Http from 'node:http';
import type * as Https from 'node:https';

let http: typeof Http | null = null;
let https: typeof Https | null = null;

/** Node's `http` module. */
export function nodeHttp(): typeof Http {
  http ??= process.getBuiltinModule('node:http');
  return http;
}

/** Node's `https` module, loaded (with TLS) on the first call. */
export function nodeHttps(): typeof Https {
  https ??= process.getBuiltinModule('node:https');
  return https;
}

/** Node's `request` for an http: URL, or an https: one (loading TLS then). */
export function requestFor(secure: boolean): typeof Http.request {
  return secure ? nodeHttps().request : nodeHttp().request;
}

/** One keep-alive agent per scheme, made on first use: importing waymark opens nothing. */
export interface AgentPool {
  http?: Http.Agent;
  https?: Http.Agent;
}

/** `pool`'s agent for the scheme, made now if it has none yet. No proxy, as Node's fetch. */
export function keepAliveAgent(pool: AgentPool, secure: boolean): Http.Agent {
  if (secure) {
    pool.https ??= new (nodeHttps().Agent)({ keepAlive: true });
    return pool.https;
  }
  pool.http ??= new (nodeHttp().Agent)({ keepAlive: true });
  return pool.http;
}
