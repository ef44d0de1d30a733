// The standard streams through plain fs calls for the fast path (search, hook, errors). process.stdout,
// process.stderr and process.stdin are stream objects whose first use loads Node's stream, net and tty
// modules: about 3 ms of every search and more of every prompt hook, for one write and one read.
import { fstatSync, read, writeSync } from 'node:fs';

export function writeOut(text: string): void {
  writeAll(1, text);
}

export function writeErr(text: string): void {
  writeAll(2, text);
}

/** True when file descriptor `fd` is a terminal (for colour); loads the tty module only when asked. */
export function isTerminal(fd: number): boolean {
  return (process.getBuiltinModule('node:tty') as typeof import('node:tty')).isatty(fd);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A reader that went away (`tsm search … | head -1`) wants no more; like ripgrep, stop quietly.
      if (code === 'EPIPE') return;
      // A pipe another process left non-blocking is full: wait for the reader, a millisecond at a time.
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      throw err;
    }
  }
}

/**
 * All of standard input as UTF-8; '' when it is a terminal or a device (nobody is going to type a hook
 * payload) or closed. Reads through libuv's thread pool, so a pipe's writer is waited for without
 * blocking the event loop.
 */
export function readStdin(): Promise<string> {
  try {
    if (fstatSync(0).isCharacterDevice()) return Promise.resolve('');
  } catch {
    return Promise.resolve('');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const next = (): void => {
      read(0, Buffer.allocUnsafe(64 * 1024), 0, 64 * 1024, null, (err, n, buf) => {
        if (err) {
          if (err.code === 'EAGAIN') setTimeout(next, 1);
          else if (err.code === 'EOF') resolve(Buffer.concat(chunks).toString('utf8'));
          else reject(err);
          return;
        }
        if (n === 0) {
          resolve(Buffer.concat(chunks).toString('utf8'));
          return;
        }
        chunks.push(buf.subarray(0, n));
        next();
      });
    };
    next();
  });
}
