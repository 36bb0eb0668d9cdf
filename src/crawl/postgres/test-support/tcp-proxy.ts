// A TCP proxy in front of a PostgreSQL server, for tests that break a connection on
// purpose: each client connection gets its own connection to the server, and `pipe` decides
// what passes between the two. Either side closing closes the other.
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The server's URL with the proxy's port. */
  readonly url: string;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

export interface Message {
  readonly type: string;
  readonly body: Buffer;
  /** The whole message, as it goes on the wire. */
  readonly raw: Buffer;
}

/**
 * Splits a protocol stream into messages (type byte, int32 length, body). The client's first
 * message, the startup message, has no type byte: `startup` skips it.
 */
export function messages(startup: boolean): (chunk: Buffer) => Message[] {
  let pending = Buffer.alloc(0);
  let skipStartup = startup;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    const out: Message[] = [];
    for (;;) {
      if (skipStartup) {
        if (pending.length < 4) return out;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return out;
        out.push({ type: '', body: Buffer.alloc(0), raw: pending.subarray(0, length) });
        pending = pending.subarray(length);
        skipStartup = false;
        continue;
      }
      if (pending.length < 5) return out;
      const length = pending.readInt32BE(1);
      if (pending.length < length + 1) return out;
      out.push({
        type: String.fromCharCode(pending[0] as number),
        body: pending.subarray(5, length + 1),
        raw: pending.subarray(0, length + 1),
      });
      pending = pending.subarray(length + 1);
    }
  };
}

export async function startTcpProxy(
  serverUrl: string,
  pipe: (client: Socket, server: Socket) => void,
): Promise<TcpProxy> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    sockets.add(client).add(server);
    pipe(client, server);
    for (const [from, to] of [
      [client, server],
      [server, client],
    ] as const) {
      from.on('error', () => to.destroy());
      from.on('close', () => {
        to.destroy();
        sockets.delete(from);
      });
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  const url = new URL(serverUrl);
  url.port = String(typeof address === 'object' && address !== null ? address.port : 0);
  return {
    url: url.href,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}
