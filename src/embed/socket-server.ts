// The resident side of the query-embedding socket (socket-protocol.ts): listens in the vault's
// `.tsm/run/` (0700) on embed.sock (0600), answers each connection's one query line with its vector, and
// takes over a socket file left by a killed server. Where another live process already answers for the
// vault (`tsm watch` and `tsm serve` at once), it stays quiet: one server per vault is enough, and the
// client reaches whichever holds the socket.
import { chmodSync, lstatSync, mkdirSync, rmSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { isSocketFile, MAX_SOCKET_PATH } from '../vault/embed-socket.js';
import { tryLockFile } from '../vault/file-lock.js';
import { encodeVector, MAX_QUERY_CHARS, MAX_REQUEST_BYTES, socketPath, type QueryVector } from './socket-protocol.js';

/** A client that connects and sends nothing (or half a line) is dropped after this long. */
const IDLE_MS = 5_000;

export interface QueryServer {
  readonly path: string;
  /** Whether the socket file is still this server's (`.tsm/` may be deleted under a resident). */
  present(): boolean;
  close(): Promise<void>;
}

export type EmbedQuery = (text: string) => Promise<QueryVector>;

/**
 * Why a resident does not answer on the vault's socket: another live process answers there (`taken`: it also
 * embeds, and this one stands down), or no socket can be made there (`unavailable`: a file that is no socket
 * in its place, a folder of another user's, a file system without sockets), so nobody answers.
 */
export type NoServer = 'taken' | 'unavailable';

/**
 * Serves `embed` on the vault's socket, or says why not (NoServer; the reason a socket cannot be made goes to
 * `onNotice`, and search goes on lexically).
 */
export async function serveQueryVectors(vault: string, embed: EmbedQuery, onNotice: (message: string) => void = () => {}): Promise<QueryServer | NoServer> {
  const path = socketPath(vault);
  const unavailable = (why: string): 'unavailable' => {
    onNotice(`no query-embedding socket: ${why}`);
    return 'unavailable';
  };
  // Longer than a Unix socket's path may be, the system would cut it and make the socket elsewhere.
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) return unavailable(`${path} is longer than a Unix socket's path may be (${MAX_SOCKET_PATH} bytes)`);
  try {
    ownerOnlyFolder(dirname(path));
  } catch (err) {
    return unavailable((err as Error).message);
  }
  const server = createServer((socket) => answer(socket, embed));
  const listened = await listen(server, path);
  if (listened === 'in-use') {
    if (await alive(path)) return 'taken';
    if (isSocketFile(path) !== true) return unavailable(`${path} exists and is not a socket; move it aside`);
    const took = await takeOver(server, path);
    if (took === 'taken') return 'taken';
    if (took !== 'ok') return unavailable(took.message);
  } else if (listened !== 'ok') {
    return unavailable(`${path}: ${listened.message}`);
  }
  // A client's error (it went away mid-answer) is the client's; a server error after listening is noted.
  // Only after: on before, listen()'s own EADDRINUSE (the socket taken by another resident, the normal case
  // beside a watcher) was noted too, on `tsm serve`'s stderr at start and at each claim attempt, every 30 s.
  server.on('error', (err) => onNotice(`query-embedding socket: ${err.message}`));
  let ino: number;
  try {
    chmodSync(path, 0o600);
    ino = lstatSync(path).ino;
  } catch (err) {
    // Gone or replaced the moment it was made: no socket here, and never a crash of the resident.
    server.close();
    return unavailable(`${path}: ${(err as Error).message}`);
  }
  const open = new Set<Socket>();
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  const ours = () => {
    try {
      return lstatSync(path).ino === ino;
    } catch {
      return false;
    }
  };
  return {
    path,
    present: ours,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
        // Only our own socket file: a newer server may have replaced it after this one stopped answering.
        try {
          if (ours()) unlinkSync(path);
        } catch {
          // already gone
        }
      }),
  };
}

function answer(socket: Socket, embed: EmbedQuery): void {
  let buffered = '';
  let done = false;
  socket.setEncoding('utf8');
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy()); // the client went away (EPIPE, ECONNRESET): nothing to tell
  socket.on('data', (chunk: string) => {
    if (done) return;
    buffered += chunk;
    const nl = buffered.indexOf('\n');
    if (nl < 0) {
      if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) reply(socket, { error: `a request is at most ${MAX_REQUEST_BYTES} bytes` });
      return;
    }
    done = true;
    let query: unknown;
    try {
      query = (JSON.parse(buffered.slice(0, nl)) as { query?: unknown }).query;
    } catch {
      query = undefined;
    }
    if (typeof query !== 'string') return reply(socket, { error: 'expected one line {"query": "…"}' });
    embed(query.slice(0, MAX_QUERY_CHARS)).then(
      (v) => reply(socket, v),
      (err: unknown) => reply(socket, { error: (err as Error).message ?? String(err) }),
    );
  });
}

function reply(socket: Socket, r: QueryVector | { error: string }): void {
  if (socket.destroyed) return; // the client gave up (its deadline passed): the vector is dropped
  socket.end(`${'error' in r ? JSON.stringify(r) : encodeVector(r)}\n`);
}

/** How long a resident waits for another that is taking the vault's socket over (it takes milliseconds). */
const LOCK_WAIT_MS = 50;
const LOCK_TRIES = 20;

/**
 * Takes over a socket file nothing answered on (left by a killed server), under `<socket>.lock`, made with
 * O_EXCL: two residents started at once (`tsm serve` and `tsm watch`, two `tsm serve`) both found the file
 * refused and both removed it, the second removing the first's fresh socket and listening in its place. The
 * first went on with a server nobody could reach and took the second's file for its own: both embedded, and
 * the one that stopped first removed the other's socket. Under the lock the file is looked at again, so the
 * second finds the first answering there ('taken'). One still held after LOCK_TRIES waits: 'taken' as well (the
 * holder answers there, or cannot, and embeds; this one tries again at its next claim).
 */
async function takeOver(server: Server, path: string): Promise<'ok' | 'taken' | Error> {
  const lock = `${path}.lock`;
  // The claim is the locks' one rule (vault/file-lock.ts tryLockFile): O_EXCL, holding the pid; a lock whose
  // holder is gone (its pid dead or another process's now), or older than LOCK_STALE_MS, is taken over.
  for (let tries = 0; ; tries++) {
    let got: boolean;
    try {
      got = tryLockFile(lock, { staleMs: LOCK_STALE_MS });
    } catch (err) {
      return new Error(`${lock}: ${(err as Error).message}`); // not a plain file: not a lock tsm made
    }
    if (got) break;
    if (tries >= LOCK_TRIES) return 'taken'; // the other resident is still at it: it answers there, or retries
    await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
    if (await alive(path)) return 'taken';
  }
  try {
    // Under the lock: another resident may have taken it over since this one found it refused.
    if (await alive(path)) return 'taken';
    // Left by a killed server: nothing answers on it. Only a socket file is removed, never anything else.
    if (isSocketFile(path) === false) return new Error(`${path} exists and is not a socket; move it aside`);
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return new Error(`${path}: ${(err as Error).message}`);
    }
    const again = await listen(server, path);
    if (again === 'in-use') return 'taken'; // a resident that found no file listened first
    return again === 'ok' ? 'ok' : new Error(`${path}: ${again.message}`);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** A lock is held for milliseconds: one older than this was left by a killed holder, whatever its pid. */
const LOCK_STALE_MS = 10_000;

function listen(server: Server, path: string): Promise<'ok' | 'in-use' | Error> {
  return new Promise((resolve) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      resolve(err.code === 'EADDRINUSE' ? 'in-use' : err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve('ok');
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(path);
  });
}

/** Whether a process answers on the socket at `path`. */
function alive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (yes: boolean) => {
      s.destroy();
      resolve(yes);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.setTimeout(1000, () => done(false));
  });
}

/** The socket's folder: made 0700, or checked to be the user's own and narrowed to 0700 (it is tsm's). */
function ownerOnlyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a folder`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if (st.uid !== uid) throw new Error(`${dir} belongs to another user (uid ${st.uid}); remove it`);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
