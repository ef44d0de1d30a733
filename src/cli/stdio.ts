// The standard output streams through plain fs calls, for every command. process.stdout and process.stderr
// are stream objects whose first use loads Node's stream, net and tty modules: about 3 ms of every search
// and more of every prompt hook, for one write. And a stream whose reader went away (`tsm doctor | head -1`)
// emits an 'error' event nobody handles: a stack trace instead of a quiet stop. (Reading stdin: see
// readStdinWithin in hook-args.ts.)
import { fstatSync, readSync, writeSync } from 'node:fs';
import { TsmError } from '../core/errors.js';
import { stripControls } from '../text/controls.js';
import { withTarget } from './fix-target.js';

/**
 * Writes the result. A write that fails for another reason than a reader gone (a full disk: ENOSPC, EIO)
 * is one `tsm: cannot write to standard output: …` line and exit 1; it was a stack trace.
 */
export function writeOut(text: string): void {
  try {
    writeAll(1, text);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const cause = `${e.message.replace(/^\w+: /, '').replace(/, write$/, '')}${e.code ? ` (${e.code})` : ''}`;
    const fix = e.code === 'ENOSPC' ? 'free space on its disk, or send the output elsewhere' : 'check where the output goes';
    throw new TsmError(`cannot write to standard output: ${cause}; ${fix}`);
  }
}

/**
 * Writes a message. One that cannot be written is dropped: there is nowhere left to report it, and a
 * command whose result went out (`tsm search q 2>/dev/full`) has not failed. Its text is cleaned as search
 * shows a note's (controls.ts): a message names paths, and a folder named `esc\e[31mred` coloured the terminal
 * through "no index yet; indexing …", the migrate and rebuild lines and init's "created …" (error lines were
 * cleaned where they are made; the progress bar writes its own `\r` elsewhere).
 */
export function writeErr(text: string): void {
  try {
    writeAll(2, withTarget(stripControls(text)));
  } catch {
    // nowhere to say it
  }
}

/**
 * True when file descriptor `fd` is a terminal (for colour). A terminal is a character device, so a pipe or a
 * file (how scripts and agents read tsm) is told by one fstat; only a character device (a terminal, or
 * /dev/null) loads Node's tty module to ask isatty: ~3 ms of a `tsm search` into a pipe (41.8 → 38.5 ms p50).
 */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed: no terminal
  }
  return (process.getBuiltinModule('node:tty') as typeof import('node:tty')).isatty(fd);
}

/**
 * True when a terminal takes control sequences (moving the cursor, colour): it is one, and not TERM=dumb
 * (an Emacs shell buffer, a log that claims a tty), where they print as garbage. An unset TERM is no
 * dumb terminal: Windows consoles set none.
 */
export function takesEscapes(toTerminal: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return toTerminal && env.TERM !== 'dumb';
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
 * All of standard input, as UTF-8, for a command that takes a list on it (`tsm index --files-from-stdin`).
 * A non-blocking stdin (EAGAIN: a pipe another process left so) is waited on a millisecond at a time, as
 * writeAll waits; any other failure throws (stdin a folder: EISDIR; closed: EBADF), where reading with
 * readFileSync and taking a failure as an empty list made `tsm index --files-from-stdin < dir/` say
 * "0 added" and exit 0.
 */
export function readAllStdin(): string {
  const chunks: Buffer[] = [];
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      if (code === 'EOF') return Buffer.concat(chunks).toString('utf8');
      throw err;
    }
    if (n === 0) return Buffer.concat(chunks).toString('utf8');
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
}

