// A TCP proxy in front of a PostgreSQL server that can cut one connection at the worst
// moments of a transaction: `inside` drops the first statements after BEGIN, `before`
// drops the COMMIT (the transaction is rolled back either way), `after` lets the server
// commit and drops its answer (the client cannot know the commit happened). It reads the
// wire protocol only as far as finding BEGIN and COMMIT (a simple Query, or the Bind of a
// statement prepared as such) and the server's CommandComplete `COMMIT`.
import type { Socket } from 'node:net';
import { messages, startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export type CutPoint = 'inside' | 'before' | 'after';

export interface CommitCuttingProxy extends TcpProxy {
  /** Cuts the next transaction's connection: see the top of the file. */
  cutNext(when: CutPoint): void;
  /** Connections cut so far. */
  readonly cuts: number;
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
  let armed: CutPoint | null = null;
  let cuts = 0;
  const proxy = await startTcpProxy(serverUrl, (client: Socket, server: Socket) => {
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
  });
  return {
    url: proxy.url,
    cutNext(when) {
      armed = when;
    },
    get cuts() {
      return cuts;
    },
    close: proxy.close,
  };
}
