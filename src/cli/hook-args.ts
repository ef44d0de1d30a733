// How `tsm` recognises that it is answering a Claude Code hook, whatever its argument list, and reads that
// argument list without ever refusing it. A hook that exits 2 erases the user's prompt, and a hook's
// command line is written once in a settings file and then runs on every prompt: `tsm --db hook`,
// `tsm -v hook`, or a bare `tsm` (Claude Code 2.0.x ignores an exec-form hook's `args`) must all still
// answer the hook. Nothing here throws.
import { fstatSync, read, readSync } from 'node:fs';

/** Every command `tsm` has (yargs-cli.ts defines them; the fast path needs the names before loading it). */
export const COMMANDS = ['index', 'search', 'status', 'doctor', 'related', 'init', 'watch', 'hook', 'ingest-session', 'serve', 'model'] as const;

/** The command an argument list names: its first argument that is a command name, skipping options. */
export function commandOf(argv: readonly string[]): string | null {
  for (const a of argv) {
    if (a === '--') return null;
    if ((COMMANDS as readonly string[]).includes(a)) return a;
  }
  return null;
}

export interface HookArgs {
  vault?: string;
  db?: string;
  /** The event argument (`tsm hook session-start`), used when the payload has no hook_event_name. */
  event?: string;
  /** Arguments that meant nothing to a hook, for one hook.log line. */
  ignored: string[];
}

const VALUE_OPTIONS = new Set(['vault', 'db']);

/**
 * A hook's arguments, leniently: `--vault V`, `--vault=V`, `--db D`, `--db=D` and the first word after
 * `hook` as the event. An option whose value is missing, empty or is the `hook` command itself (as in
 * `tsm --db hook`) is ignored, like every other unknown argument.
 */
export function parseHookArgs(argv: readonly string[]): HookArgs {
  const out: HookArgs = { ignored: [] };
  const hookAt = argv.indexOf('hook');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (i === hookAt) continue;
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(a);
    if (m && VALUE_OPTIONS.has(m[1])) {
      let value = m[2];
      if (value === undefined && i + 1 < argv.length && i + 1 !== hookAt && !argv[i + 1].startsWith('-')) value = argv[++i];
      if (value === undefined || value === '') out.ignored.push(a);
      else out[m[1] as 'vault' | 'db'] = value;
    } else if (!a.startsWith('-') && a !== '' && hookAt >= 0 && i > hookAt && out.event === undefined) {
      out.event = a;
    } else {
      out.ignored.push(a);
    }
  }
  return out;
}

/** True when standard input is a terminal or a device: nobody will type a hook payload there. */
export function stdinIsInteractive(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true; // closed: nothing to read
  }
}

/** What a read of stdin within a deadline found. */
export interface StdinRead {
  /** The text read, or null when nothing usable came in time (or stdin is a terminal, a device, closed). */
  text: string | null;
  /** The writer has not closed stdin: the caller should exit explicitly once its answer is written. */
  pending: boolean;
  /** A thread-pool read is still waiting (readPayloadWithin): only SIGKILL can end this process now. */
  stuck?: boolean;
}

/**
 * `tsm hook`'s stdin, if a whole payload arrives within `waitMs`; null otherwise. Like readStdinWithin,
 * but a pipe or socket is read through the thread pool (fs.read) instead of process.stdin, whose net and
 * stream modules cost every prompt 3.4 ms (`echo {} | node -e …`, median of 40: 25.8 ms against 22.4 ms
 * for a read of fd 0; the hook's whole run is ~65 ms). A read through the thread pool cannot be given up:
 * Node waits for it even in process.exit(). So when the deadline passes with a read still waiting,
 * `stuck` tells the caller to end the process with SIGKILL, which Claude Code counts as a failed hook
 * (exit status 1: the prompt goes through). Claude Code writes the payload and closes stdin as it starts
 * the hook, so that happens only to a writer that sends nothing, or half a payload, and stays silent.
 * A whole payload ends the reading even when the pipe stays open: no read is left waiting then.
 * A non-blocking stdin (EAGAIN) is polled every 5 ms: no read waits then, and the deadline ends it as usual.
 */
export function readPayloadWithin(waitMs: number): Promise<StdinRead> {
  const now = readAtOnce();
  if (now !== null) return Promise.resolve(now);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (r: StdinRead): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    // Whether a read is waiting in the thread pool (a non-blocking stdin is polled instead: see below).
    let inFlight = false;
    const timer = setTimeout(() => finish({ text: null, pending: true, stuck: inFlight }), waitMs);
    const next = (): void => {
      const buf = Buffer.allocUnsafe(64 * 1024);
      inFlight = true;
      read(0, buf, 0, buf.length, null, (err, n) => {
        inFlight = false;
        if (done) return;
        if (err) {
          // A stdin left non-blocking by whoever shares it answers "nothing yet" at once: ask again shortly.
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN') setTimeout(next, 5);
          else finish({ text: null, pending: false });
          return;
        }
        if (n === 0) return finish({ text: Buffer.concat(chunks).toString('utf8'), pending: false });
        const chunk = buf.subarray(0, n);
        chunks.push(chunk);
        const text = wholePayload(chunks, chunk);
        if (text !== null) return finish({ text, pending: true });
        next();
      });
    };
    next();
  });
}

/**
 * Standard input, if it arrives (to its end) within `waitMs`; null otherwise. A hook's payload is written
 * at once and the pipe closed, so the wait is spent only when stdin stays open and silent; `pending` then
 * tells the caller that the read is still under way and it should exit explicitly.
 *
 * A file is read at once, and left unread for whoever reads stdin next (peekFile). A pipe or socket
 * (Claude Code's stdin is a socket) is read through process.stdin, a non-blocking libuv stream: about
 * 3 ms to load net and stream, but a read through the thread pool (fs.read) that never completes makes
 * even process.exit() hang, as Node waits for its thread pool on exit (measured with Node 20: killed after
 * 5 s). A deadline must be able to end the process, and a usage error must still exit 2: the probes of
 * main.ts read this way. `tsm hook` itself reads with readPayloadWithin.
 */
export function readStdinWithin(waitMs: number): Promise<StdinRead> {
  const now = readAtOnce();
  if (now !== null) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stdin = process.stdin;
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (text: string | null, pending: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      if (pending) stdin.pause();
      resolve({ text, pending });
    };
    const timer = setTimeout(() => finish(null, true), waitMs);
    stdin.on('data', (d: Buffer) => {
      chunks.push(d);
      const text = wholePayload(chunks, d);
      if (text !== null) finish(text, true);
    });
    stdin.once('end', () => finish(Buffer.concat(chunks).toString('utf8'), false));
    stdin.once('error', () => finish(null, false));
  });
}

/** What stdin gives without waiting (a terminal, a device, closed: nothing; a file: its text), or null for a pipe or socket. */
function readAtOnce(): StdinRead | null {
  try {
    const st = fstatSync(0);
    if (st.isCharacterDevice()) return { text: null, pending: false };
    return st.isFile() ? { text: peekFile(), pending: false } : null;
  } catch {
    return { text: null, pending: false }; // closed: nothing to read
  }
}

/**
 * The payload, when the chunks read so far (the last of them `last`) make a whole one: a writer that sends a
 * whole JSON object but keeps the pipe open must not cost the deadline. Only a chunk that ends in `}` may
 * complete it (a failed parse of a partial one is cheap).
 */
function wholePayload(chunks: Buffer[], last: Buffer): string | null {
  if (!/\}\s*$/.test(last.toString('latin1', Math.max(0, last.length - 16)))) return null;
  const text = Buffer.concat(chunks).toString('utf8');
  return isHookPayload(text) ? text : null;
}

/**
 * A file on stdin, read by position (pread) so that its offset does not move: a usage error's check for a
 * payload must not read away the lines of a script's `while read q; do tsm search "$q"; done < queries.txt`
 * (it did, and the loop ended at the first usage error). From the file's start, as Node cannot ask for the
 * offset; a payload file given as stdin starts there. (A pipe or a socket, which Claude Code uses, cannot be
 * looked at without being read.)
 */
function peekFile(): string | null {
  try {
    const size = fstatSync(0).size;
    const buf = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = readSync(0, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.toString('utf8', 0, got);
  } catch {
    return null;
  }
}

/**
 * True when `text` is, or was meant to be, a hook payload: a JSON object naming `hook_event_name`. Used
 * to route a command line to the hook, so even a damaged payload gets the hook's answer (exit 1 with a
 * message) rather than a usage error's exit 2, which would erase the prompt.
 */
export function looksLikeHookPayload(text: string | null): text is string {
  return text !== null && text.replace(/^\uFEFF/, '').trimStart().startsWith('{') && text.includes('"hook_event_name"');
}

/** True when `text` is a whole hook payload: a JSON object naming its event in `hook_event_name`. */
export function isHookPayload(text: string | null): text is string {
  if (text === null) return false;
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (!t.startsWith('{') || !t.includes('hook_event_name')) return false;
  try {
    const o = JSON.parse(t) as unknown;
    return o !== null && typeof o === 'object' && !Array.isArray(o) && typeof (o as Record<string, unknown>).hook_event_name === 'string';
  } catch {
    return false;
  }
}
