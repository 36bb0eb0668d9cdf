// A TCP proxy in front of a PostgreSQL server that lets each connection start (everything
// up to the server's first ReadyForQuery) and then holds every later answer: the first
// statement on a new connection waits for ever, as on a server that stalled.
import { messages, startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export interface ReplyHoldingProxy extends TcpProxy {
  /** Settles once an answer after a connection's start is held. */
  readonly holding: Promise<void>;
}

export async function startReplyHoldingProxy(serverUrl: string): Promise<ReplyHoldingProxy> {
  let held: () => void = () => {};
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const proxy = await startTcpProxy(serverUrl, (client, server) => {
    client.on('data', (chunk: Buffer) => server.write(chunk));
    const fromServer = messages(false);
    let started = false;
    server.on('data', (chunk: Buffer) => {
      for (const { type, raw } of fromServer(chunk)) {
        if (started) return held();
        client.write(raw);
        if (type === 'Z') started = true;
      }
    });
  });
  return { ...proxy, holding };
}
