// The standard output streams through plain fs calls, for every command. process.stdout and process.stderr
// are stream objects whose first use loads Node's stream, net and tty modules: about 3 ms of every search
// and more of every prompt hook, for one write. And a stream whose reader went away (`tsm doctor | head -1`)
// emits an 'error' event nobody handles: a stack trace instead of a quiet stop. (Reading stdin: see
// readStdinWithin in hook-args.ts.)
import { writeSync } from 'node:fs';

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
