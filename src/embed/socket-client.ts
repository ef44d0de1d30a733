// The asking side of the query-embedding socket (socket-protocol.ts), for `tsm search`: connect, send the
// query, read one line, all within a deadline. Every failure (no socket, refused, timeout, a server killed
// or closing mid-answer, a malformed reply) is a reason string, and the caller searches lexically.
import { connect } from 'node:net';
import { isSocketFile } from '../vault/embed-socket.js';
import { decodeVector, MAX_QUERY_CHARS, MAX_REPLY_BYTES, socketPath, type QueryVector } from './socket-protocol.js';

/**
 * How long `tsm search` waits for a query's vector. The socket's round trip is well under a millisecond
 * and a small model embeds a short query in ~5–30 ms, but the resident may be in the middle of one
 * background passage (a 512-token chunk: ~50–100 ms on one thread): 200 ms covers that, and a search
 * that must do without the model is late by at most 0.2 s, below what a person notices at a prompt.
 */
export const QUERY_DEADLINE_MS = 200;

export async function askQueryVector(
  vault: string,
  query: string,
  opts: { timeoutMs?: number; path?: string } = {},
): Promise<QueryVector | { error: string }> {
  const path = opts.path ?? socketPath(vault);
  const timeoutMs = opts.timeoutMs ?? QUERY_DEADLINE_MS;
  return new Promise((resolve) => {
    let settled = false;
    let buffered = '';
    const socket = connect(path);
    const finish = (r: QueryVector | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify({ query: query.slice(0, MAX_QUERY_CHARS) })}\n`));
    socket.on('error', (err: NodeJS.ErrnoException) => finish({ error: connectError(err, path) }));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const nl = buffered.indexOf('\n');
      if (nl >= 0) finish(decodeVector(buffered.slice(0, nl)));
      else if (buffered.length > MAX_REPLY_BYTES) finish({ error: 'the reply is too long' });
    });
    socket.on('close', () => finish({ error: 'the server closed the connection without an answer' }));
  });
}

/**
 * The fingerprint of the model a resident answers query vectors with for the vault now; null when nothing
 * answers within `timeoutMs` (for `tsm status`, which has no deadline of a search: a resident in the middle of
 * one background passage answers within ~100 ms). The protocol's one request is a query: a word is embedded.
 */
export async function answeringModel(vault: string, timeoutMs = 1000): Promise<string | null> {
  const r = await askQueryVector(vault, 'status', { timeoutMs });
  return 'error' in r ? null : r.fingerprint;
}

function connectError(err: NodeJS.ErrnoException, path: string): string {
  switch (err.code) {
    case 'ENOENT':
      return 'no resident process (tsm serve, tsm watch) serves query vectors for this vault';
    case 'ECONNREFUSED':
      // A file that is no socket refuses too, and no resident takes it over (it is never removed): it says so.
      return isSocketFile(path) !== false
        ? `nothing answers on ${path} (left by a stopped process; the next tsm serve or tsm watch takes it over)`
        : `${path} is not a socket, so no resident (tsm serve, tsm watch) can listen there: move it aside`;
    case 'EACCES':
      return `${path} is not yours to use (owner-only)`;
    default:
      return `${err.code ?? 'error'}: ${err.message}`;
  }
}
