// `tsm model pull` against a fake Hugging Face on 127.0.0.1 (test/helpers/tiny-model-hub.ts) serving the
// tiny model. Cut-off transfers resume; a wrong file is refused.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pullModel } from '../../src/embed/download.js';
import { loadEmbedder } from '../../src/embed/embedder.js';
import { startFakeHub, TINY_COMMIT as COMMIT, TINY_ID as ID, type FakeHub } from '../helpers/tiny-model-hub.js';

let root: string;
let hub: FakeHub;
let endpoint: string;

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-pull-'));
  hub = await startFakeHub(join(root, 'src'));
  endpoint = hub.endpoint;
});

afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => hub.reset());

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
    expect(readFileSync(join(dest, 'model.onnx')).equals(hub.repo.files.get('onnx/model.onnx')!)).toBe(true);
    expect(seen.at(-1)).toBe(hub.repo.files.get('onnx/model.onnx')!.length);
    const meta = JSON.parse(readFileSync(join(dest, 'tsm-model.json'), 'utf8'));
    expect(meta).toMatchObject({ name: ID, revision: COMMIT, files: { 'model.onnx': { sha256: sha256(hub.repo.files.get('onnx/model.onnx')!) } } });
    expect(readdirSync(dest).filter((f) => f.endsWith('.part'))).toEqual([]);
    // Every download named the commit, not the branch.
    expect(hub.log.filter((l) => l.path.includes('/resolve/')).every((l) => l.path.includes(`/resolve/${COMMIT}/`))).toBe(true);
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
    hub.log.length = 0;
    const again = await pullModel({ id: ID, dest, env: env() });
    expect(again.files.every((f) => f.outcome === 'kept')).toBe(true);
    expect(hub.log.filter((l) => l.path.includes('/resolve/'))).toEqual([]);
    const forced = await pullModel({ id: ID, dest, env: env(), force: true });
    expect(forced.files.every((f) => f.outcome === 'downloaded')).toBe(true);
  });

  // The client may lose the last bytes before a connection drop (undici discards what it buffered when the
  // socket fails), so a resume starts at or before the cut, from exactly what the part file holds.
  const rangeStart = (r: string | undefined): number => Number(/^bytes=(\d+)-$/.exec(r ?? '')?.[1] ?? NaN);

  it('resumes a transfer that broke off, with a Range request, and gets the same bytes', async () => {
    const dest = freshDest();
    const size = hub.repo.files.get('onnx/model.onnx')!.length;
    const cuts = [Math.floor(size / 3), Math.floor((2 * size) / 3)];
    hub.cutAt.set('onnx/model.onnx', [...cuts]);
    await pullModel({ id: ID, dest, env: env() });
    const ranges = hub.log.filter((l) => l.path.endsWith('/onnx/model.onnx')).map((l) => l.range);
    expect(ranges).toHaveLength(3);
    expect(ranges[0]).toBeUndefined();
    const [r1, r2] = [rangeStart(ranges[1]), rangeStart(ranges[2])];
    expect(r1).toBeGreaterThan(0);
    expect(r1).toBeLessThanOrEqual(cuts[0]!);
    expect(r2).toBeGreaterThan(r1);
    expect(r2).toBeLessThanOrEqual(cuts[1]!);
    expect(readFileSync(join(dest, 'model.onnx')).equals(hub.repo.files.get('onnx/model.onnx')!)).toBe(true);
  });

  it('keeps the part when retries run out, says to run it again, and the next pull resumes from it', async () => {
    const dest = freshDest();
    const size = hub.repo.files.get('onnx/model.onnx')!.length;
    const cut = Math.floor(size / 2);
    hub.cutAt.set('onnx/model.onnx', [cut]);
    const err = await pullModel({ id: ID, dest, env: env(), retries: 0 }).then(
      () => null,
      (e: Error) => e,
    );
    const m = new RegExp(`download of onnx/model\\.onnx stopped at (\\d+) of ${size} bytes .*run \`tsm model pull ${ID}\` again; it resumes where it stopped`).exec(err?.message ?? '');
    expect(m, err?.message).not.toBeNull();
    const got = Number(m![1]);
    expect(got).toBeGreaterThan(0);
    expect(got).toBeLessThanOrEqual(cut);
    expect(statSync(join(dest, 'model.onnx.part')).size).toBe(got);
    expect(existsSync(join(dest, 'model.onnx'))).toBe(false);
    expect(existsSync(join(dest, 'tsm-model.json'))).toBe(false);
    hub.log.length = 0;
    await pullModel({ id: ID, dest, env: env() });
    expect(hub.log.find((l) => l.path.endsWith('/onnx/model.onnx'))?.range).toBe(`bytes=${got}-`);
    expect(readFileSync(join(dest, 'model.onnx')).equals(hub.repo.files.get('onnx/model.onnx')!)).toBe(true);
  });

  it('refuses a file that does not match its checksum, LFS (sha256) or not (git blob sha1), and deletes it', async () => {
    for (const path of ['onnx/model.onnx', 'config.json']) {
      const dest = freshDest();
      const good = hub.repo.files.get(path)!;
      const bad = Buffer.from(good);
      bad[bad.length >> 1] ^= 0xff;
      hub.tampered.set(path, bad);
      const local = path === 'onnx/model.onnx' ? 'model.onnx' : path;
      await expect(pullModel({ id: ID, dest, env: env() })).rejects.toThrow(new RegExp(`${path.replace('.', '\\.')} does not match its checksum .*the download was deleted`));
      expect(existsSync(join(dest, local))).toBe(false);
      expect(existsSync(join(dest, `${local}.part`))).toBe(false);
      hub.tampered.delete(path);
    }
  });

  it('starts a part over when it is longer than the file (a different file was being fetched)', async () => {
    const dest = freshDest();
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, 'model.onnx.part'), Buffer.alloc(hub.repo.files.get('onnx/model.onnx')!.length + 10, 1));
    await pullModel({ id: ID, dest, env: env() });
    expect(readFileSync(join(dest, 'model.onnx')).equals(hub.repo.files.get('onnx/model.onnx')!)).toBe(true);
  });

  it('names the fix for an unknown model, an unreachable endpoint, and a repository without an ONNX export', async () => {
    await expect(pullModel({ id: 'nobody/nothing', dest: freshDest(), env: env() })).rejects.toThrow(/nobody\/nothing \(or that revision\) is not on http:\/\/127\.0\.0\.1:\d+: check the name/);
    await expect(pullModel({ id: ID, dest: freshDest(), env: { HF_ENDPOINT: 'http://127.0.0.1:9' } })).rejects.toThrow(/cannot reach http:\/\/127\.0\.0\.1:9 .*set HF_ENDPOINT to a mirror/);
    const onnx = hub.repo.files.get('onnx/model.onnx')!;
    hub.repo.files.delete('onnx/model.onnx');
    try {
      await expect(pullModel({ id: ID, dest: freshDest(), env: env() })).rejects.toThrow(/has no ONNX export at c0ffee000000 .*optimum-cli export onnx --model tsm-test\/tiny/);
    } finally {
      hub.repo.files.set('onnx/model.onnx', onnx);
    }
  });
});
