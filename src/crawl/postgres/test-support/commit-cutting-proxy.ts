// A TCP proxy in front of a PostgreSQL server that can cut one connection at the worst
// moments of a transaction: `inside` drops the first statements after BEGIN, `before`
// drops the COMMIT (the transaction is rolled back either way), `after` lets the server
// commit and drops its answer (the client cannot know the commit happened). It reads the
// wire protocol only as far as finding BEGIN and COMMIT (a simple Query, or the Bind of a
// statement prepared as such) and the server's CommandComplete `COMMIT`.
import { connect, createServer, type Socket } from 'node:net';

export type CutPoint = 'inside' | 'before' | 'after';

export interface CommitCuttingProxy {
  /** The server's URL with the proxy's port. */
  readonly url: string;
  /** Cuts the next transaction's connection: see the top of the file. */
  cutNext(when: CutPoint): void;
  /** Connections cut so far. */
  readonly cuts: number;
  close(): Promise<void>;
}

interface Message {
  readonly type: string;
  readonly body: Buffer;
  /** The whole message, as it goes on the wire. */
  readonly raw: Buffer;
}

/**
 * Splits a protocol stream into messages (type byte, int32 length, body). The client's first
 * message, the startup message, has no type byte: `startup` skips it.
 */
function messages(startup: boolean): (chunk: Buffer) => Message[] {
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

/** The NUL-terminated strings at the start of a message body. */
function strings(body: Buffer, n: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const end = body.indexOf(0, at);
    out.push(body.toString('utf8', at, end < 0 ? body.length : end));
    at = end + 1;
  }
  return out;
}

const isCommit = (sql: string | undefined) => sql?.trim().toLowerCase() === 'commit';
const isBegin = (sql: string | undefined) => sql?.trim().toLowerCase().startsWith('begin');

export async function startCommitCuttingProxy(serverUrl: string): Promise<CommitCuttingProxy> {
  const target = new URL(serverUrl);
  let armed: CutPoint | null = null;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    sockets.add(client).add(server);
    const fromClient = messages(true);
    const fromServer = messages(false);
    /** Prepared statements (by name) whose text is COMMIT. */
    const commits = new Set<string>();
    let cutOnCommitDone = false;
    let cutAfterBegin = false;
    let closed = false;
    const cut = () => {
      cuts++;
      closed = true;
      client.destroy();
      server.destroy();
    };
    // Message by message: a client that pipelines sends BEGIN, its statements and COMMIT in
    // one chunk, and a cut must still fall between two of them.
    client.on('data', (chunk: Buffer) => {
      if (closed) return;
      for (const { type, body, raw } of fromClient(chunk)) {
        if (cutAfterBegin) return cut();
        let commit = false;
        if (type === 'Q' && isCommit(strings(body, 1)[0])) commit = true;
        if (type === 'Q' && armed === 'inside' && isBegin(strings(body, 1)[0])) {
          armed = null;
          cutAfterBegin = true;
        }
        if (type === 'P') {
          const [name = '', sql] = strings(body, 2);
          if (isCommit(sql)) commits.add(name);
          else commits.delete(name);
        }
        if (type === 'B' && commits.has(strings(body, 2)[1] ?? '')) commit = true;
        if (commit && (armed === 'before' || armed === 'after')) {
          const when = armed;
          armed = null;
          if (when === 'before') return cut();
          cutOnCommitDone = true;
        }
        server.write(raw);
      }
    });
    server.on('data', (chunk: Buffer) => {
      if (closed) return;
      const done = fromServer(chunk).some(
        ({ type, body }) => type === 'C' && strings(body, 1)[0] === 'COMMIT',
      );
      if (cutOnCommitDone && done) return cut();
      client.write(chunk);
    });
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
    cutNext(when) {
      armed = when;
    },
    get cuts() {
      return cuts;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}
