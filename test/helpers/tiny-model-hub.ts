// A fake Hugging Face Hub on 127.0.0.1 serving the tiny model (tiny-model.ts) as one repository: the
// revision and tree APIs `tsm model pull` asks, and `resolve/` downloads with Range. Tests can cut a
// transfer off after some bytes (it resumes) or serve other bytes than the tree lists (it is refused).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeTinyModel } from './tiny-model.js';

export const TINY_ID = 'tsm-test/tiny';
export const TINY_COMMIT = 'c0ffee'.padEnd(40, '0');

export interface FakeHub {
  endpoint: string;
  repo: { files: Map<string, Buffer>; lfs: Set<string> };
  /** Per repository path: serve only this many bytes, then drop the connection (one entry per request). */
  cutAt: Map<string, number[]>;
  /** Per repository path: bytes served instead of the listed file. */
  tampered: Map<string, Buffer>;
  log: { path: string; range?: string }[];
  reset(): void;
  close(): Promise<void>;
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const gitSha1 = (b: Buffer): string => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

/** Writes the tiny model into `srcDir` (model in onnx/, with a pooling config) and serves it. */
export async function startFakeHub(srcDir: string): Promise<FakeHub> {
  writeTinyModel(srcDir, { pooling: 'mean', onnxPath: 'onnx/model.onnx', meta: null });
  const files = new Map<string, Buffer>();
  for (const p of ['onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json', 'modules.json', '1_Pooling/config.json']) files.set(p, readFileSync(join(srcDir, p)));
  const hub: FakeHub = {
    endpoint: '',
    repo: { files, lfs: new Set(['onnx/model.onnx', 'tokenizer.json']) },
    cutAt: new Map(),
    tampered: new Map(),
    log: [],
    reset() {
      hub.cutAt.clear();
      hub.tampered.clear();
      hub.log.length = 0;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url!, 'http://x');
    hub.log.push({ path: url.pathname, range: req.headers.range });
    if (url.pathname === `/api/models/${TINY_ID}/revision/main`) return void res.end(JSON.stringify({ id: TINY_ID, sha: TINY_COMMIT }));
    if (url.pathname === `/api/models/${TINY_ID}/tree/${TINY_COMMIT}`) {
      const entries = [...hub.repo.files].map(([path, b]) => ({
        type: 'file',
        path,
        size: hub.repo.lfs.has(path) ? 134 : b.length, // an LFS entry's own size is its pointer's
        oid: gitSha1(b),
        ...(hub.repo.lfs.has(path) ? { lfs: { oid: sha256(b), size: b.length, pointerSize: 134 } } : {}),
      }));
      return void res.end(JSON.stringify([{ type: 'directory', path: 'onnx', oid: 'x', size: 0 }, ...entries]));
    }
    const prefix = `/${TINY_ID}/resolve/${TINY_COMMIT}/`;
    if (!url.pathname.startsWith(prefix)) return void res.writeHead(404).end('not found');
    const path = decodeURIComponent(url.pathname.slice(prefix.length));
    const body = hub.tampered.get(path) ?? hub.repo.files.get(path);
    if (!body) return void res.writeHead(404).end('not found');
    let start = 0;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m) {
      start = Number(m[1]);
      if (start >= body.length) return void res.writeHead(416).end();
      res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    } else res.writeHead(200, { 'content-length': body.length });
    const cut = hub.cutAt.get(path)?.shift();
    if (cut !== undefined && cut > start) {
      // end(), not destroy(): a reset would drop bytes still in flight, and the cut would land anywhere.
      res.write(body.subarray(start, cut), () => res.socket?.end());
      return;
    }
    res.end(body.subarray(start));
  }

  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hub.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return hub;
}
