// A sitemap file as a source of byte chunks, read into two buffers of its own. Node's file
// stream allocates a new 64 KiB buffer per read and goes through a thread-pool trip for
// each: reading 131 MB that way costs ~160 ms of CPU against ~40 ms in 1 MiB reads into
// reused buffers, and the buffers it drops wait for a garbage collection. Each read is made
// ahead, while the parser reads the chunk before, so the parser does not wait for the disk
// or the page cache. The reader can lend its buffers because the sitemap parser keeps
// nothing of the bytes it is given (it decodes them at once, and copies what it holds while
// it sniffs the encoding). A gzipped file is not lent: its chunks go to zlib, which works on
// them on Node's thread pool, and the reader should not depend on when the inflater lets go
// of its input; it is read into a new 64 KiB buffer per read, as a stream would.

import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { cannotRead } from '../../shared/files/cannot-read.ts';
import type { ChunkSource } from './byte-source.ts';

// node:fs with callbacks on a raw descriptor, not a FileHandle: each call costs the main
// thread less (reading a small file: ~180 against ~240 µs of CPU, which is most of a small
// read's cost). The descriptor is closed only once no read on it is pending (see `close`),
// as a FileHandle would be.

/** The most read at once: enough that a read's fixed cost is small beside its bytes. */
const MOST_PER_READ = 1024 * 1024;
/** Read size when the size is unknown (a character device) and for gzip. */
const STREAM_READ = 64 * 1024;

/**
 * Opens `path` for reading as chunks, and reads its first chunk. Rejects with an
 * `io-failed` WaymarkError when the file cannot be opened or that first read fails
 * (no such file, a directory, no permission, a device that cannot be read): the file cannot
 * be read at all. A failure after that is the reading's, reported as for any input.
 *
 * On Linux a FIFO or a terminal is read on Node's event loop as it fills, with no first read
 * at open: a writer may not have come yet, and the reading's time limit governs the wait.
 */
export async function openFileChunks(path: string): Promise<ChunkSource> {
  let fd: number;
  try {
    fd = await openFd(path, ON_EVENT_LOOP ? constants.O_RDONLY | constants.O_NONBLOCK : 'r');
  } catch (error) {
    throw cannotRead(path, error);
  }
  let chunks: FileChunks | null = null;
  try {
    const stat = await new Promise<Stats>((resolve, reject) =>
      fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))),
    );
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (ON_EVENT_LOOP && stat.isFIFO()) {
      const { Socket } = await import('node:net');
      // As Node opens a piped standard input: read-only, so the end of input does not shut
      // down a writing side that is not there.
      return streamChunks(new Socket({ fd, readable: true, writable: false }));
    }
    if (ON_EVENT_LOOP && stat.isCharacterDevice()) {
      const tty = await import('node:tty');
      if (tty.isatty(fd)) return streamChunks(new tty.ReadStream(fd));
      // Another device (/dev/zero, a serial line) is read as a file, and may block: without
      // O_NONBLOCK, or a read with nothing to give would fail with EAGAIN.
      const nonBlocking = fd;
      fd = -1;
      close(nonBlocking, () => {});
      fd = await openFd(path, 'r');
    }
    chunks = new FileChunks(fd, stat.isFile() ? stat.size : 0);
    await chunks.readFirst();
  } catch (error) {
    if (chunks !== null) chunks.close();
    else if (fd >= 0) close(fd, () => {});
    throw cannotRead(path, error);
  }
  return chunks;
}

/**
 * Whether FIFOs and terminals are read on the event loop. Opened without O_NONBLOCK, a FIFO
 * waits on Node's thread pool until a writer comes, and nothing can call that off: a FIFO
 * nobody writes to held a pool thread (one of four, which every file call and DNS lookup of
 * the process shares) and kept the process from exiting. Linux only: there a FIFO opened
 * with O_NONBLOCK reports its end only once a writer has come and gone, so a late writer is
 * waited for; macOS's kqueue is reported never to signal a FIFO's last writer leaving, so
 * elsewhere FIFOs are read as files, as before. On a regular file the flag does nothing.
 */
const ON_EVENT_LOOP = process.platform === 'linux';

function openFd(path: string, flags: number | string): Promise<number> {
  return new Promise<number>((resolve, reject) =>
    open(path, flags, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
}

/**
 * A FIFO's or terminal's stream as chunks: a read waiting for a writer (or a typist) holds
 * no pool thread, and closing destroys the stream, which closes its descriptor. `node:net`
 * and `node:tty` are loaded only for these.
 */
function streamChunks(stream: Readable): ChunkSource {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    stream.destroy();
  };
  return {
    next: async () => {
      if (closed) return null;
      const step = await chunks.next();
      if (!step.done) return step.value;
      close();
      return null;
    },
    close,
  };
}

/** An ArrayBuffer with ES2024's `transfer`, which the project's ES2023 types lack. */
type Transferable = ArrayBuffer & { transfer(length: number): ArrayBuffer };

/** What one read gave: its bytes, in the buffer it was made into. */
interface Read {
  readonly buffer: Buffer;
  readonly bytesRead: number;
}

class FileChunks implements ChunkSource {
  readonly #fd: number;
  /**
   * The two lent buffers: the next read fills one while the parser reads the other. A small
   * file gets smaller ones, never under 64 KiB (it may grow while it is read).
   */
  readonly #buffers: [Buffer, Buffer];
  #turn = 0;
  /** The read made ahead, while the last chunk was being parsed. */
  #ahead: Promise<Read> | null = null;
  /** The read under way, if any: the descriptor is closed only after it. */
  #pending: Promise<unknown> | null = null;
  /** Null until the first bytes are read; then whether chunks are lent (not gzip). */
  #lend: boolean | null = null;
  #closed = false;

  constructor(fd: number, size: number) {
    this.#fd = fd;
    const length = Math.min(Math.max(size, STREAM_READ), MOST_PER_READ);
    this.#buffers = [Buffer.allocUnsafeSlow(length), Buffer.allocUnsafeSlow(length)];
  }

  /** Makes the first read, whose result the first {@link next} hands out; rejects as it fails. */
  async readFirst(): Promise<void> {
    const first = this.#read();
    this.#ahead = first;
    await first;
  }

  async next(): Promise<Uint8Array | null> {
    if (this.#closed) return null;
    const pending = this.#ahead ?? this.#read();
    this.#ahead = null;
    const { buffer, bytesRead } = await pending;
    if (this.#closed) return null;
    if (bytesRead === 0) {
      this.close();
      return null;
    }
    let chunk: Uint8Array = buffer.subarray(0, bytesRead);
    if (this.#lend === null) {
      // Lent only when the first read shows the file is not gzip; a first read too short
      // to tell (a pipe) settles it the safe way, and hands out a copy of the lent buffer
      // (a Buffer's slice() would be a view).
      this.#lend = bytesRead >= 2 && !(chunk[0] === 0x1f && chunk[1] === 0x8b);
      if (!this.#lend) chunk = new Uint8Array(chunk);
    }
    this.#readAhead();
    return chunk;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ahead = null;
    // Closed now, a descriptor could be given to another file before a pending read of it
    // runs on the thread pool, which would then read that file. The two lent buffers are
    // let go of at once too (detached): left to the garbage collector, the buffers of the
    // 20 parts of an index read one after another added up to some 25 MB of peak RSS.
    const fd = this.#fd;
    const buffers = this.#buffers;
    const release = () => {
      close(fd, () => {});
      // Each its own ArrayBuffer (allocUnsafeSlow: not Node's shared pool). `transfer`:
      // ES2024, in every Node this package supports.
      for (const buffer of buffers) (buffer.buffer as Transferable).transfer(0);
    };
    if (this.#pending === null) release();
    else this.#pending.then(release, release);
  }

  /**
   * The next read, into the buffer not lent out (while lending), else into a new one. The
   * chunk just handed out is in the other buffer, and the parser is done with it before it
   * asks for the next, which is when this read's buffer is handed out in turn.
   */
  #read(): Promise<Read> {
    let buffer: Buffer;
    if (this.#lend === false) {
      buffer = Buffer.allocUnsafeSlow(STREAM_READ);
    } else {
      buffer = this.#buffers[this.#turn] as Buffer;
      this.#turn ^= 1;
    }
    const reading = new Promise<Read>((resolve, reject) => {
      read(this.#fd, buffer, 0, buffer.length, null, (error, bytesRead) => {
        this.#pending = null;
        if (error) reject(error);
        else resolve({ buffer, bytesRead });
      });
    });
    this.#pending = reading;
    return reading;
  }

  #readAhead(): void {
    const ahead = this.#read();
    // Awaited by the next call; a failure before then is not unhandled.
    ahead.catch(() => {});
    this.#ahead = ahead;
  }
}
