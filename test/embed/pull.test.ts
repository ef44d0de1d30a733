// `tsm model pull` against a fake Hugging Face on 127.0.0.1: the revision and tree APIs and `resolve/`
// downloads with Range, serving the tiny model. Cut-off transfers resume; a wrong file is refused.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pullModel } from '../../src/embed/download.js';
import { loadEmbedder } from '../../src/embed/embedder.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

const ID = 'tsm-test/tiny';
const COMMIT = 'c0ffee'.padEnd(40, '0');

interface Repo {
  files: Map<string, Buffer>;
  /** Files stored in LFS (listed with a sha256); the rest are listed with their git blob sha1. */
  lfs: Set<string>;
}

let root: string;
let server: Server;
let endpoint: string;
let repo: Repo;
/** Per path: serve only this many bytes, then drop the connection (once per entry in the list). */
let cutAt: Map<string, number[]>;
/** Per path: bytes to serve instead of the listed file. */
let tampered: Map<string, Buffer>;
let log: { path: string; range?: string }[];

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const gitSha1 = (b: Buffer): string => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url!, 'http://x');
  log.push({ path: url.pathname, range: req.headers.range });
  if (url.pathname === `/api/models/${ID}/revision/main`) return void res.end(JSON.stringify({ id: ID, sha: COMMIT }));
  if (url.pathname === `/api/models/${ID}/tree/${COMMIT}`) {
    const entries = [...repo.files].map(([path, b]) => ({
      type: 'file',
      path,
      size: repo.lfs.has(path) ? 134 : b.length, // an LFS entry's own size is its pointer's
      oid: gitSha1(b),
      ...(repo.lfs.has(path) ? { lfs: { oid: sha256(b), size: b.length, pointerSize: 134 } } : {}),
    }));
    return void res.end(JSON.stringify([{ type: 'directory', path: 'onnx', oid: 'x', size: 0 }, ...entries]));
  }
  const prefix = `/${ID}/resolve/${COMMIT}/`;
  if (!url.pathname.startsWith(prefix)) return void res.writeHead(404).end('not found');
  const path = decodeURIComponent(url.pathname.slice(prefix.length));
  const body = tampered.get(path) ?? repo.files.get(path);
  if (!body) return void res.writeHead(404).end('not found');
  let start = 0;
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  if (m) {
    start = Number(m[1]);
    if (start >= body.length) return void res.writeHead(416).end();
    res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
  } else res.writeHead(200, { 'content-length': body.length });
  const cuts = cutAt.get(path);
  const cut = cuts?.shift();
  if (cut !== undefined && cut > start) {
    res.write(body.subarray(start, cut), () => setTimeout(() => res.socket?.destroy(), 10));
    return;
  }
  res.end(body.subarray(start));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-pull-'));
  const src = join(root, 'src');
  writeTinyModel(src, { pooling: 'mean', onnxPath: 'onnx/model.onnx', meta: null });
  const files = new Map<string, Buffer>();
  for (const p of ['onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json', 'modules.json', '1_Pooling/config.json']) files.set(p, readFileSync(join(src, p)));
  repo = { files, lfs: new Set(['onnx/model.onnx', 'tokenizer.json']) };
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  cutAt = new Map();
  tampered = new Map();
  log = [];
});

let n = 0;
const freshDest = (): string => join(root, `dest-${++n}`);
const env = (): NodeJS.ProcessEnv => ({ HF_ENDPOINT: endpoint });

describe('pullModel', () => {
  it('fetches the files of one commit into a folder loadEmbedder reads, and records them', async () => {
    const dest = freshDest();
    const seen: number[] = [];
    const r = await pullModel({ id: ID, dest, env: env(), onProgress: (f, done) => f === 'model.onnx' && seen.push(done) });
    expect(r.commit).toBe(COMMIT);
    expect(r.files.map((f) => f.path).sort()).toEqual(['1_Pooling/config.json', 'config.json', 'model.onnx', 'modules.json', 'tokenizer.json', 'tokenizer_config.json']);
    expect(readFileSync(join(dest, 'model.onnx')).equals(repo.files.get('onnx/model.onnx')!)).toBe(true);
    expect(seen.at(-1)).toBe(repo.files.get('onnx/model.onnx')!.length);
    const meta = JSON.parse(readFileSync(join(dest, 'tsm-model.json'), 'utf8'));
    expect(meta).toMatchObject({ name: ID, revision: COMMIT, files: { 'model.onnx': { sha256: sha256(repo.files.get('onnx/model.onnx')!) } } });
    expect(readdirSync(dest).filter((f) => f.endsWith('.part'))).toEqual([]);
    // Every download named the commit, not the branch.
    expect(log.filter((l) => l.path.includes('/resolve/')).every((l) => l.path.includes(`/resolve/${COMMIT}/`))).toBe(true);
    const e = await loadEmbedder(dest);
    try {
      expect(e.spec.name).toBe(ID);
      expect(e.spec.dims).toBe(32);
    } finally {
      await e.close();
    }
  });

  it('downloads nothing the second time, and everything again with force', async () => {
    const dest = freshDest();
    await pullModel({ id: ID, dest, env: env() });
    log = [];
    const again = await pullModel({ id: ID, dest, env: env() });
    expect(again.files.every((f) => f.outcome === 'kept')).toBe(true);
    expect(log.filter((l) => l.path.includes('/resolve/'))).toEqual([]);
    const forced = await pullModel({ id: ID, dest, env: env(), force: true });
    expect(forced.files.every((f) => f.outcome === 'downloaded')).toBe(true);
  });

  it('resumes a transfer that broke off, with a Range request, and gets the same bytes', async () => {
    const dest = freshDest();
    const size = repo.files.get('onnx/model.onnx')!.length;
    cutAt.set('onnx/model.onnx', [Math.floor(size / 3), Math.floor((2 * size) / 3)]);
    await pullModel({ id: ID, dest, env: env() });
    const ranges = log.filter((l) => l.path.endsWith('/onnx/model.onnx')).map((l) => l.range);
    expect(ranges).toEqual([undefined, `bytes=${Math.floor(size / 3)}-`, `bytes=${Math.floor((2 * size) / 3)}-`]);
    expect(readFileSync(join(dest, 'model.onnx')).equals(repo.files.get('onnx/model.onnx')!)).toBe(true);
  });

  it('keeps the part when retries run out, says to run it again, and the next pull resumes from it', async () => {
    const dest = freshDest();
    const size = repo.files.get('onnx/model.onnx')!.length;
    const cut = Math.floor(size / 2);
    cutAt.set('onnx/model.onnx', [cut]);
    await expect(pullModel({ id: ID, dest, env: env(), retries: 0 })).rejects.toThrow(
      new RegExp(`download of onnx/model\\.onnx stopped at ${cut} of ${size} bytes .*run \`tsm model pull ${ID}\` again; it resumes where it stopped`),
    );
    expect(statSync(join(dest, 'model.onnx.part')).size).toBe(cut);
    expect(existsSync(join(dest, 'model.onnx'))).toBe(false);
    expect(existsSync(join(dest, 'tsm-model.json'))).toBe(false);
    log = [];
    await pullModel({ id: ID, dest, env: env() });
    expect(log.find((l) => l.path.endsWith('/onnx/model.onnx'))?.range).toBe(`bytes=${cut}-`);
    expect(readFileSync(join(dest, 'model.onnx')).equals(repo.files.get('onnx/model.onnx')!)).toBe(true);
  });

  it('refuses a file that does not match its checksum, LFS (sha256) or not (git blob sha1), and deletes it', async () => {
    for (const path of ['onnx/model.onnx', 'config.json']) {
      const dest = freshDest();
      const good = repo.files.get(path)!;
      const bad = Buffer.from(good);
      bad[bad.length >> 1] ^= 0xff;
      tampered.set(path, bad);
      const local = path === 'onnx/model.onnx' ? 'model.onnx' : path;
      await expect(pullModel({ id: ID, dest, env: env() })).rejects.toThrow(new RegExp(`${path.replace('.', '\\.')} does not match its checksum .*the download was deleted`));
      expect(existsSync(join(dest, local))).toBe(false);
      expect(existsSync(join(dest, `${local}.part`))).toBe(false);
      tampered.delete(path);
    }
  });

  it('starts a part over when it is longer than the file (a different file was being fetched)', async () => {
    const dest = freshDest();
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, 'model.onnx.part'), Buffer.alloc(repo.files.get('onnx/model.onnx')!.length + 10, 1));
    await pullModel({ id: ID, dest, env: env() });
    expect(readFileSync(join(dest, 'model.onnx')).equals(repo.files.get('onnx/model.onnx')!)).toBe(true);
  });

  it('names the fix for an unknown model, an unreachable endpoint, and a repository without an ONNX export', async () => {
    await expect(pullModel({ id: 'nobody/nothing', dest: freshDest(), env: env() })).rejects.toThrow(/nobody\/nothing \(or that revision\) is not on http:\/\/127\.0\.0\.1:\d+: check the name/);
    await expect(pullModel({ id: ID, dest: freshDest(), env: { HF_ENDPOINT: 'http://127.0.0.1:9' } })).rejects.toThrow(/cannot reach http:\/\/127\.0\.0\.1:9 .*set HF_ENDPOINT to a mirror/);
    const onnx = repo.files.get('onnx/model.onnx')!;
    repo.files.delete('onnx/model.onnx');
    try {
      await expect(pullModel({ id: ID, dest: freshDest(), env: env() })).rejects.toThrow(/has no ONNX export at c0ffee000000 .*optimum-cli export onnx --model tsm-test\/tiny/);
    } finally {
      repo.files.set('onnx/model.onnx', onnx);
    }
  });
});
