// The query-embedding socket (src/embed/socket-*.ts) with the real runtime and the tiny model: a round trip
// gives the model's own query vector, owner-only permissions, and every way it can fail ends in a reason
// within the deadline — a server that never answers, one killed mid-answer, a stale socket file left by a
// killed process (taken over by the next server), a client that goes away, a second server for a vault
// that has one, and two vaults at once, each with its own socket and model.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embed/embedder.js';
import { askQueryVector, QUERY_DEADLINE_MS } from '../../src/embed/socket-client.js';
import { socketPath, type QueryVector } from '../../src/embed/socket-protocol.js';
import { serveQueryVectors, type QueryServer } from '../../src/embed/socket-server.js';
import type { Embedder } from '../../src/embed/types.js';
import { startResidentEmbedder } from '../../src/embed/query-embedder.js';
import { loadConfig } from '../../src/vault/config.js';
import { waitFor } from '../helpers/cli.js';
import { leaveStaleSocket } from '../helpers/resident.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

let root: string;
let e1: Embedder;
let e2: Embedder;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-sock-'));
  writeTinyModel(join(root, 'm1'), { seed: 1 });
  writeTinyModel(join(root, 'm2'), { seed: 2, meta: { name: 'tsm-test/tiny-2' } });
  e1 = await loadEmbedder(join(root, 'm1'));
  e2 = await loadEmbedder(join(root, 'm2'));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await e1?.close();
  await e2?.close();
  rmSync(root, { recursive: true, force: true });
});

let vaults = 0;
function newVault(): string {
  const v = join(root, `v${vaults++}`);
  mkdirSync(join(v, '.tsm'), { recursive: true });
  return v;
}

const embedWith = (e: Embedder) => async (text: string): Promise<QueryVector> => ({ fingerprint: e.fingerprint, vector: await e.embedQuery(text) });

async function serve(vault: string, e: Embedder): Promise<QueryServer> {
  const s = await serveQueryVectors(vault, embedWith(e));
  if (typeof s === 'string') throw new Error(`no server: ${s}`);
  cleanups.push(() => s.close());
  return s;
}

/** A server of our own making on the vault's socket path, for the peers that misbehave. */
async function rawServer(vault: string, onConnection: (socket: Socket) => void): Promise<Server> {
  const path = socketPath(vault);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const server = createServer(onConnection);
  const open = new Set<Socket>();
  server.on('connection', (c) => {
    open.add(c);
    c.on('close', () => open.delete(c));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const c of open) c.destroy();
        server.close(() => resolve());
      }),
  );
  return server;
}


describe('query-embedding socket', () => {
  it('answers the model’s own query vector, on an owner-only socket', async () => {
    const vault = newVault();
    const s = await serve(vault, e1);
    expect(s.path).toBe(join(vault, '.tsm', 'run', 'embed.sock'));
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(s.path)).mode & 0o777).toBe(0o700);
    const r = await askQueryVector(vault, 'LoRa antenna 犬の追跡');
    if ('error' in r) throw new Error(r.error);
    expect(r.fingerprint).toBe(e1.fingerprint);
    expect([...r.vector]).toEqual([...(await e1.embedQuery('LoRa antenna 犬の追跡'))]);
    await s.close();
    expect(existsSync(s.path)).toBe(false);
  });

  it('round trip: well inside the deadline (the figure docs/search.md quotes)', async () => {
    const vault = newVault();
    await serve(vault, e1);
    const times: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < 50; i++) {
      let t = performance.now();
      const r = await askQueryVector(vault, `query number ${i} about antennas`);
      times.push(performance.now() - t);
      expect('fingerprint' in r).toBe(true);
      t = performance.now();
      await e1.embedQuery(`query number ${i} about antennas`);
      direct.push(performance.now() - t);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
    process.stdout.write(`socket round trip (tiny model): median ${median(times).toFixed(2)} ms; the model alone ${median(direct).toFixed(2)} ms\n`);
    expect(median(times)).toBeLessThan(QUERY_DEADLINE_MS);
  });

  it('no server: an immediate reason', async () => {
    const started = performance.now();
    const r = await askQueryVector(newVault(), 'x');
    expect(r).toEqual({ error: expect.stringMatching(/no resident process/) });
    expect(performance.now() - started).toBeLessThan(QUERY_DEADLINE_MS);
  });

  it('a server that never answers: the deadline', async () => {
    const vault = newVault();
    await rawServer(vault, () => {});
    const started = performance.now();
    const r = await askQueryVector(vault, 'x', { timeoutMs: 100 });
    const took = performance.now() - started;
    expect(r).toEqual({ error: 'no answer within 100 ms' });
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(1000);
  });

  it('a server that dies mid-answer, or answers nonsense: a reason, never a throw', async () => {
    const vault = newVault();
    await rawServer(vault, (sock) => sock.once('data', () => sock.destroy()));
    expect(await askQueryVector(vault, 'x')).toEqual({ error: expect.stringMatching(/closed the connection|ECONNRESET/) });
    const other = newVault();
    await rawServer(other, (sock) => sock.once('data', () => sock.end('{"fingerprint":"f","dims":4,"vector":"AAAA"}\n')));
    expect(await askQueryVector(other, 'x')).toEqual({ error: 'the vector has 3 bytes, not 4 × 4' });
  });

  it('carries the resident’s nearest notes; a malformed list refuses the reply', async () => {
    const vault = newVault();
    const nearest = { index: '2049:1234', ids: [3 * 2 ** 20, 5 * 2 ** 20 + 2, 7000 * 2 ** 20] }; // ids past 2^31 too
    const s = await serveQueryVectors(vault, async (text) => ({ ...(await embedWith(e1)(text)), nearest }));
    cleanups.push(() => (typeof s === 'string' ? undefined : s.close()));
    const r = await askQueryVector(vault, 'antenna');
    if ('error' in r) throw new Error(r.error);
    expect(r.nearest).toEqual(nearest);
    const bad = async (field: string) => {
      const v = newVault();
      await rawServer(v, (sock) => sock.once('data', () => sock.end(`{"fingerprint":"f","dims":1,"vector":"AACAPw==","nearest":${field}}\n`)));
      return askQueryVector(v, 'x');
    };
    expect(await bad('{"index":"1:2","ids":[1,2]}')).toMatchObject({ nearest: { index: '1:2', ids: [1, 2] } });
    expect(await bad('{"ids":[1]}')).toEqual({ error: "the reply's nearest lacks index or ids" });
    expect(await bad('{"index":"1:2","ids":[1.5]}')).toEqual({ error: "the reply's nearest holds an id that is not a section id" });
    expect(await bad('{"index":"1:2","ids":[-1]}')).toEqual({ error: "the reply's nearest holds an id that is not a section id" });
    expect(await bad(`{"index":"1:2","ids":[${Array(2001).fill(1).join(',')}]}`)).toEqual({ error: "the reply's nearest holds 2001 ids, more than 2000" });
  });

  it('a stale socket file of a killed server: refused for the client, taken over by the next server', async () => {
    const vault = newVault();
    await leaveStaleSocket(vault);
    expect(await askQueryVector(vault, 'x')).toEqual({ error: expect.stringMatching(/^nothing answers on .*embed\.sock \(left by a stopped process/) });
    const s = await serve(vault, e1);
    const r = await askQueryVector(vault, 'x');
    expect('fingerprint' in r && r.fingerprint).toBe(e1.fingerprint);
    expect(s.path).toBe(socketPath(vault));
  });

  it('two servers started at once on a stale socket: one takes it over and answers, the other says taken', async () => {
    // Both found the killed server's file refused and both removed "it": the second removed the first's fresh
    // socket and listened in its place, and the first went on with a server nobody could reach, believing the
    // second's file its own (it checked the file at the path after listening): both embedded, and its close
    // removed the other's socket.
    for (let round = 0; round < 8; round++) {
      const vault = newVault();
      await leaveStaleSocket(vault);
      const both = await Promise.all([serveQueryVectors(vault, embedWith(e1)), serveQueryVectors(vault, embedWith(e2))]);
      for (const s of both) if (typeof s !== 'string') cleanups.push(() => s.close());
      const servers = both.filter((s): s is QueryServer => typeof s !== 'string');
      expect(both.filter((s) => typeof s === 'string')).toEqual(['taken']);
      expect(servers).toHaveLength(1);
      // The one that says it serves is the one that answers on the vault's socket.
      const r = await askQueryVector(vault, 'x');
      expect('fingerprint' in r && r.fingerprint).toBe(both[0] === servers[0] ? e1.fingerprint : e2.fingerprint);
      expect(servers[0].present()).toBe(true);
      expect(existsSync(`${socketPath(vault)}.lock`)).toBe(false);
      await servers[0].close();
      expect(existsSync(socketPath(vault))).toBe(false);
    }
  });

  it('a lock left by a killed resident mid-takeover does not keep the socket from being taken over', async () => {
    const vault = newVault();
    await leaveStaleSocket(vault);
    const lock = `${socketPath(vault)}.lock`;
    // Its process is gone.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(lock, String(dead.pid));
    const first = await serve(vault, e1);
    expect(existsSync(lock)).toBe(false);
    await first.close();
    // Its pid runs again (reused), but a lock is held for milliseconds: one a minute old is stale.
    await leaveStaleSocket(vault);
    writeFileSync(lock, String(process.pid));
    const then = (Date.now() - 60_000) / 1000;
    utimesSync(lock, then, then);
    await serve(vault, e2);
    const r = await askQueryVector(vault, 'x');
    expect('fingerprint' in r && r.fingerprint).toBe(e2.fingerprint);
    expect(existsSync(lock)).toBe(false);
  });

  it('a resident taking the socket over this moment (a fresh lock of a live process): the other says taken and leaves both files', async () => {
    const vault = newVault();
    await leaveStaleSocket(vault);
    const lock = `${socketPath(vault)}.lock`;
    writeFileSync(lock, String(process.pid));
    expect(await serveQueryVectors(vault, embedWith(e1))).toBe('taken');
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    expect(lstatSync(socketPath(vault)).isSocket()).toBe(true);
    rmSync(lock);
    await serve(vault, e1); // the lock gone, the stale socket is taken over
  });

  it('a live server is left alone: a second one for the vault stands down', async () => {
    const vault = newVault();
    await serve(vault, e1);
    expect(await serveQueryVectors(vault, embedWith(e2))).toBe('taken');
    const r = await askQueryVector(vault, 'x');
    expect('fingerprint' in r && r.fingerprint).toBe(e1.fingerprint);
  });

  it('a client that goes away (before or after asking) leaves the server answering the next', async () => {
    const vault = newVault();
    await serve(vault, e1);
    for (const how of ['before', 'after'] as const) {
      await new Promise<void>((resolve) => {
        const c = connect(socketPath(vault));
        c.on('error', () => {});
        c.once('connect', () => {
          if (how === 'after') c.write('{"query":"gone"}\n');
          c.destroy();
          setTimeout(resolve, 50);
        });
      });
    }
    // An aborted client by the deadline: the answer it no longer waits for is dropped.
    expect(await askQueryVector(vault, 'x'.repeat(3000), { timeoutMs: 0 })).toEqual({ error: 'no answer within 0 ms' });
    const r = await askQueryVector(vault, 'still here');
    expect('fingerprint' in r && r.fingerprint).toBe(e1.fingerprint);
  });

  it('a malformed request is answered with an error line, not a crash', async () => {
    const vault = newVault();
    await serve(vault, e1);
    const line = await new Promise<string>((resolve) => {
      const c = connect(socketPath(vault));
      let got = '';
      c.setEncoding('utf8');
      c.on('data', (d: string) => (got += d));
      c.on('end', () => resolve(got));
      c.once('connect', () => c.write('not json\n'));
    });
    expect(JSON.parse(line)).toEqual({ error: 'expected one line {"query": "…"}' });
  });

  it('a resident that stood down takes the socket over once the other one stops', async () => {
    const vault = newVault();
    writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify({ modelDir: join(root, 'm2') }));
    const cfg = loadConfig({ vaultFlag: vault, env: {} });
    const first = await serve(vault, e1);
    const second = await startResidentEmbedder(cfg, () => {});
    if (!second) throw new Error('the model did not load');
    cleanups.push(() => second.close());
    expect(second.server).toBeNull();
    expect(second.standsDown).toBe(true);
    let claimed: string | null = null;
    second.whenServing(50, (s) => (claimed = s?.path ?? 'no socket'));
    await new Promise((r) => setTimeout(r, 200));
    expect(claimed).toBeNull(); // the first still answers
    await first.close();
    await waitFor(() => claimed !== null, 5000);
    expect(claimed).toBe(socketPath(vault));
    const r = await askQueryVector(vault, 'x');
    expect('fingerprint' in r && r.fingerprint).toBe(e2.fingerprint);
  });

  it('a socket that cannot be made (a file that is no socket in its place): the resident embeds all the same, and listens once it can', async () => {
    // Taken for "another process answers": the resident stood down, and nothing answered or embedded.
    const vault = newVault();
    writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify({ modelDir: join(root, 'm1') }));
    mkdirSync(dirname(socketPath(vault)), { recursive: true });
    writeFileSync(socketPath(vault), 'mine\n');
    const notices: string[] = [];
    expect(await serveQueryVectors(vault, embedWith(e1), (m) => notices.push(m))).toBe('unavailable');
    expect(notices).toEqual([`no query-embedding socket: ${socketPath(vault)} exists and is not a socket; move it aside`]);
    const resident = await startResidentEmbedder(loadConfig({ vaultFlag: vault, env: {} }), (m) => notices.push(m));
    if (!resident) throw new Error('the model did not load');
    cleanups.push(() => resident.close());
    expect(resident.server).toBeNull();
    expect(resident.standsDown).toBe(false);
    const claims: (string | null)[] = [];
    resident.whenServing(50, (s) => claims.push(s?.path ?? null));
    expect(claims).toEqual([null]); // at once: no other process answers, so this one embeds
    await new Promise((r) => setTimeout(r, 200));
    expect(notices).toHaveLength(2); // the reason once, not at every try
    // The asking side names it too: no stopped process left it, and no resident takes it over.
    expect(await askQueryVector(vault, 'x')).toEqual({ error: `${socketPath(vault)} is not a socket, so no resident (tsm serve, tsm watch) can listen there: move it aside` });
    expect(readFileSync(socketPath(vault), 'utf8')).toBe('mine\n'); // never removed
    rmSync(socketPath(vault));
    await waitFor(() => resident.server !== null, 5000);
    expect(claims).toEqual([null]); // embedding was started once
    expect(notices.at(-1)).toBe(`query vectors on ${socketPath(vault)} now`);
    const r = await askQueryVector(vault, 'x');
    expect('fingerprint' in r && r.fingerprint).toBe(e1.fingerprint);
  });

  it('two vaults at once: each its own socket and model', async () => {
    const a = newVault();
    const b = newVault();
    const sa = await serve(a, e1);
    const sb = await serve(b, e2);
    expect(sa.path).not.toBe(sb.path);
    const [ra, rb] = await Promise.all([askQueryVector(a, 'q'), askQueryVector(b, 'q')]);
    expect('fingerprint' in ra && ra.fingerprint).toBe(e1.fingerprint);
    expect('fingerprint' in rb && rb.fingerprint).toBe(e2.fingerprint);
  });

  it('a vault whose socket path would be too long uses a hashed one in the temporary folder', () => {
    const deep = join(root, 'x'.repeat(120));
    const p = socketPath(deep);
    expect(p.startsWith(tmpdir())).toBe(true);
    expect(Buffer.byteLength(p)).toBeLessThan(104);
    expect(socketPath(deep)).toBe(p);
    expect(socketPath(`${deep}y`)).not.toBe(p);
    // A $TMPDIR too long for it as well: /tmp (the system cut a longer path and made the socket elsewhere).
    const before = process.env.TMPDIR;
    process.env.TMPDIR = join(root, 'y'.repeat(100));
    try {
      expect(socketPath(deep)).toBe(join('/tmp', `tsm-${process.getuid!()}`, basename(p)));
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});
