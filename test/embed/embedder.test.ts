// The embedding runtime through its real path: a model folder written by the test (test/helpers/tiny-model.ts),
// the real tokenizer library, the real ONNX runtime (a devDependency, so CI has it).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNKER_VERSION, loadEmbedder } from '../../src/embed/embedder.js';
import { TINY_DEFAULT_META, tinyTokenizerJson, writeTinyModel } from '../helpers/tiny-model.js';
import type { Embedder } from '../../src/embed/types.js';

let root: string;
let embedder: Embedder;
let modelDir: string;

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-embed-'));
  modelDir = join(root, 'tiny');
  writeTinyModel(modelDir);
  embedder = await loadEmbedder(modelDir);
});

afterAll(async () => {
  await embedder?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh copy of the tiny model with `edit` applied, for the tests that change a file. */
function variant(name: string, edit: (dir: string) => void = () => {}): string {
  const dir = join(root, name);
  cpSync(modelDir, dir, { recursive: true });
  edit(dir);
  return dir;
}

describe('loadEmbedder on a generated model', () => {
  it('gives unit vectors of the model’s width for Japanese, English and mixed text', async () => {
    expect(embedder.spec).toMatchObject({ name: 'tsm-test/tiny', dims: 32, maxTokens: 32, queryPrefix: '検索クエリ: ' });
    for (const text of ['犬の追跡装置', 'LoRa antenna range', 'カタカナとひらがなと漢字 and ASCII 123']) {
      const q = await embedder.embedQuery(text);
      expect(q).toBeInstanceOf(Float32Array);
      expect(q.length).toBe(32);
      expect(norm(q)).toBeCloseTo(1, 5);
      const [p] = await embedder.embedPassage(text);
      expect(norm(p!)).toBeCloseTo(1, 5);
    }
  });

  it('frames queries and passages with their prefixes: the same text gives different vectors', async () => {
    const q = await embedder.embedQuery('電池の持ち');
    const [p] = await embedder.embedPassage('電池の持ち');
    expect(dot(q, p!)).toBeLessThan(0.9999);
    // …and the prefix is the only difference: a model loaded with the prefixes swapped swaps the vectors.
    const swapped = await loadEmbedder(modelDir, { queryPrefix: TINY_DEFAULT_META.passagePrefix, passagePrefix: TINY_DEFAULT_META.queryPrefix });
    try {
      const [sp] = await swapped.embedPassage('電池の持ち');
      expect(dot(await swapped.embedQuery('電池の持ち'), p!)).toBeCloseTo(1, 5);
      expect(dot(sp!, q)).toBeCloseTo(1, 5);
    } finally {
      await swapped.close();
    }
  });

  it('is deterministic, and different texts give different vectors', async () => {
    const a = await embedder.embedQuery('LoRa');
    expect(Array.from(await embedder.embedQuery('LoRa'))).toEqual(Array.from(a));
    expect(dot(a, await embedder.embedQuery('VHF'))).toBeLessThan(0.99);
  });

  it('gives the same vector alone as among concurrent calls (batch = single, one run at a time)', async () => {
    const texts = ['一', 'two', '三つ目', 'four four'];
    const alone = [];
    for (const t of texts) alone.push(Array.from(await embedder.embedQuery(t)));
    const together = await Promise.all(texts.map((t) => embedder.embedQuery(t)));
    expect(together.map((v) => Array.from(v))).toEqual(alone);
  });

  it('splits a passage longer than maxTokens into chunks, each a unit vector; a short one is one chunk', async () => {
    // The tiny tokenizer makes one token per kana: 32 tokens = <s> + 検索文書: (4) + 26 of text + </s>.
    const short = 'あ'.repeat(20);
    expect(await embedder.embedPassage(short)).toHaveLength(1);
    const long = 'あいうえおかきくけこ'.repeat(10); // 100 kana → ceil(100 / 26) = 4 windows
    const chunks = await embedder.embedPassage(long);
    expect(chunks).toHaveLength(4);
    for (const c of chunks) expect(norm(c)).toBeCloseTo(1, 5);
    // The first window is exactly what the unsplit start of the text gives.
    const [first] = await embedder.embedPassage(long.slice(0, 26));
    expect(Array.from(chunks[0]!)).toEqual(Array.from(first!));
    // A query is never split: the same long text is one vector.
    expect((await embedder.embedQuery(long)).length).toBe(32);
    expect(await embedder.embedPassage('  \n ')).toEqual([]);
  });

  it('mean-pools unless the folder’s sentence-transformers config says CLS', async () => {
    const cls = await loadEmbedder(variant('cls', (d) => writeTinyModel(d, { pooling: 'cls' })));
    try {
      // CLS pooling takes the first token, <s>, whatever follows: every text gives the same vector.
      expect(Array.from(await cls.embedQuery('犬'))).toEqual(Array.from(await cls.embedQuery('猫')));
      expect(cls.fingerprint).not.toBe(embedder.fingerprint);
    } finally {
      await cls.close();
    }
  });

  it('feeds token_type_ids when the graph asks for them, and finds model.onnx in onnx/', async () => {
    const dir = join(root, 'tt');
    writeTinyModel(dir, { tokenTypeIds: true, onnxPath: 'onnx/model.onnx' });
    const tt = await loadEmbedder(dir);
    try {
      // The graph adds token_type_ids to the ids: all zeros leaves them, so the vectors match the plain model's.
      expect(Array.from(await tt.embedQuery('検索'))).toEqual(Array.from(await embedder.embedQuery('検索')));
    } finally {
      await tt.close();
    }
  });

  it('takes dims from the model when the folder does not say, and refuses a width that disagrees', async () => {
    const bare = join(root, 'bare');
    writeTinyModel(bare, { meta: null, dim: 16 });
    rmSync(join(bare, 'config.json'));
    const e = await loadEmbedder(bare);
    try {
      expect(e.spec).toMatchObject({ name: 'bare', dims: 16, queryPrefix: '', passagePrefix: '', maxTokens: 512 });
    } finally {
      await e.close();
    }
    await expect(loadEmbedder(modelDir, { dims: 384 })).rejects.toThrow(/gives 32-dimensional vectors, but the model is said to give 384/);
  });
});

describe('the fingerprint', () => {
  it('names model, revision, tokenizer, pooling, prefixes, window and chunker version', () => {
    const f = embedder.fingerprint;
    expect(f).toMatch(/^tsm-test\/tiny@sha256:[0-9a-f]{16};tok=[0-9a-f]{16};pool=mean;/);
    expect(f).toContain(`chunker=${CHUNKER_VERSION}`);
    expect(f).toContain('q="検索クエリ: "');
    expect(embedder.spec.revision).toMatch(/^sha256:/);
  });

  it('stays the same for the same files, and changes when the weights, tokenizer, a prefix or the window change', async () => {
    const same = await loadEmbedder(variant('same'));
    const weights = await loadEmbedder(variant('weights', (d) => writeTinyModel(d, { seed: 2 })));
    const tokenizer = await loadEmbedder(
      variant('tokenizer', (d) => {
        const { json } = tinyTokenizerJson();
        writeFileSync(join(d, 'tokenizer.json'), JSON.stringify({ ...json, normalizer: { type: 'NFC' } }));
      }),
    );
    const prefix = await loadEmbedder(modelDir, { passagePrefix: 'passage: ' });
    const window = await loadEmbedder(modelDir, { maxTokens: 64 });
    try {
      expect(same.fingerprint).toBe(embedder.fingerprint);
      const all = [embedder, weights, tokenizer, prefix, window].map((e) => e.fingerprint);
      expect(new Set(all).size).toBe(all.length);
    } finally {
      await Promise.all([same, weights, tokenizer, prefix, window].map((e) => e.close()));
    }
  });

  it('hashes model.onnx once per size and mtime, and again when the file changes', async () => {
    const dir = variant('rehash');
    const t = new Date(Date.UTC(2026, 0, 1)); // whole seconds: utimes keeps them exactly
    utimesSync(join(dir, 'model.onnx'), t, t);
    const first = await loadEmbedder(dir);
    await first.close();
    const cache = JSON.parse(readFileSync(join(dir, '.tsm-hash.json'), 'utf8'));
    expect(cache['model.onnx'].sha256).toMatch(/^[0-9a-f]{64}$/);
    // Same size and mtime, different bytes: the cached hash is trusted (that is the cache's bargain)…
    const bytes = readFileSync(join(dir, 'model.onnx'));
    writeTinyModel(dir, { seed: 3 });
    utimesSync(join(dir, 'model.onnx'), t, t);
    expect(readFileSync(join(dir, 'model.onnx')).equals(bytes)).toBe(false);
    const trusted = await loadEmbedder(dir);
    expect(trusted.spec.revision).toBe(first.spec.revision);
    await trusted.close();
    // …and a new mtime makes it hash again.
    utimesSync(join(dir, 'model.onnx'), t, new Date(t.getTime() + 5000));
    const rehashed = await loadEmbedder(dir);
    expect(rehashed.spec.revision).not.toBe(first.spec.revision);
    await rehashed.close();
  });
});

describe('errors name the fix', () => {
  it('a missing folder, model.onnx or tokenizer.json', async () => {
    await expect(loadEmbedder(join(root, 'nowhere'))).rejects.toThrow(/no model folder at .*nowhere: run `tsm model pull NAME`/);
    await expect(loadEmbedder(join(root, 'nowhere'), { name: 'cl-nagoya/ruri-v3-30m' })).rejects.toThrow(/run `tsm model pull cl-nagoya\/ruri-v3-30m`/);
    await expect(loadEmbedder(variant('no-onnx', (d) => rmSync(join(d, 'model.onnx'))))).rejects.toThrow(/holds no model\.onnx .*put a complete model export/);
    await expect(loadEmbedder(variant('no-tok', (d) => rmSync(join(d, 'tokenizer.json'))))).rejects.toThrow(/holds no tokenizer\.json/);
  });

  it('a corrupt model.onnx or tokenizer.json', async () => {
    const torn = variant('torn', (d) => {
      const b = readFileSync(join(d, 'model.onnx'));
      writeFileSync(join(d, 'model.onnx'), b.subarray(0, b.length >> 1));
    });
    await expect(loadEmbedder(torn)).rejects.toThrow(/model\.onnx is not a model the ONNX runtime can load .*: replace the files in .*torn with a complete export/);
    // A pulled folder (tsm-model.json names its source) is pulled again.
    const pulledTorn = variant('pulled-torn', (d) => {
      writeFileSync(join(d, 'tsm-model.json'), JSON.stringify({ ...TINY_DEFAULT_META, source: 'https://example.invalid/tsm-test/tiny' }));
      writeFileSync(join(d, 'model.onnx'), readFileSync(join(torn, 'model.onnx')));
    });
    await expect(loadEmbedder(pulledTorn)).rejects.toThrow(/: pull the model again \(`tsm model pull tsm-test\/tiny --force`\)$/);
    await expect(loadEmbedder(variant('badjson', (d) => writeFileSync(join(d, 'tokenizer.json'), '{"model": ')))).rejects.toThrow(/tokenizer\.json is not valid JSON/);
    await expect(
      loadEmbedder(variant('badtok', (d) => writeFileSync(join(d, 'tokenizer.json'), JSON.stringify({ model: { type: 'NoSuchModel' } })))),
    ).rejects.toThrow(/tokenizer\.json is not a tokenizer tsm can read/);
  });

  it('a torn modules.json, or a folder where model.onnx or tokenizer.json belongs, is named with the fix (no bare SyntaxError or EISDIR)', async () => {
    const tornModules = variant('torn-modules', (d) => writeFileSync(join(d, 'modules.json'), '[{"type": "sentence_transformers.models.Pool'));
    await expect(loadEmbedder(tornModules)).rejects.toThrow(/modules\.json: modules\.json is not valid JSON \(.*\); put a complete model export in .*torn-modules/);
    await expect(loadEmbedder(tornModules)).rejects.toHaveProperty('name', 'EmbedError');
    const onnxFolder = variant('onnx-folder', (d) => {
      rmSync(join(d, 'model.onnx'));
      mkdirSync(join(d, 'model.onnx'));
    });
    await expect(loadEmbedder(onnxFolder)).rejects.toThrow(/onnx-folder holds no model\.onnx \(nor onnx\/model\.onnx\): put a complete model export/);
    const tokFolder = variant('tok-folder', (d) => {
      rmSync(join(d, 'tokenizer.json'));
      mkdirSync(join(d, 'tokenizer.json'));
    });
    await expect(loadEmbedder(tokFolder)).rejects.toThrow(/tokenizer\.json: tokenizer\.json is a folder, not a file \(.*\); put a complete model export/);
  });

  it('a missing runtime names `tsm model setup`', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty, { recursive: true });
    await expect(loadEmbedder(modelDir, { runtimeSearch: [{ from: 'setup', base: join(empty, 'package.json') }] })).rejects.toThrow(
      /ONNX runtime for semantic search is not installed: run `tsm model setup` \(installs onnxruntime-node@1\.30\.0/,
    );
  });
});

describe('the runtime', () => {
  it('`tsm model setup` installs the version the tests and CI run (package.json pins it as a devDependency)', async () => {
    const { ORT_VERSION, findRuntime } = await import('../../src/embed/runtime.js');
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
    expect(pkg.devDependencies['onnxruntime-node']).toBe(ORT_VERSION);
    expect(pkg.dependencies['onnxruntime-node']).toBeUndefined();
    expect(findRuntime()).toMatchObject({ version: ORT_VERSION, from: 'tsm' });
  });
});

describe('what the runtime leaves behind', () => {
  const litter = join(tmpdir(), `mat-debug-${process.pid}.log`);

  it('its empty mat-debug-<pid>.log in the temp folder is removed once the model is loaded', async () => {
    // The suite's model was loaded in beforeAll; a second load would make the file again.
    expect(existsSync(litter)).toBe(false);
    const again = await loadEmbedder(modelDir);
    await again.close();
    expect(existsSync(litter)).toBe(false);
  });

  it('a file of that name that was there before, or that holds something, is left alone', async () => {
    writeFileSync(litter, '');
    try {
      const again = await loadEmbedder(modelDir);
      await again.close();
      expect(existsSync(litter)).toBe(true);
    } finally {
      rmSync(litter, { force: true });
    }
  });
});

describe('tsm model setup’s pruning', () => {
  it('keeps only this platform’s native runtime, and leaves an unknown layout whole', async () => {
    const { pruneOtherPlatforms } = await import('../../src/embed/setup.js');
    const pkg = join(root, 'ort-pkg');
    const bins = join(pkg, 'bin', 'napi-v6');
    const layout = [`${process.platform}/${process.arch}`, `${process.platform}/other-arch`, 'other-os/x64', 'other-os/arm64'];
    for (const d of layout) {
      mkdirSync(join(bins, d), { recursive: true });
      writeFileSync(join(bins, d, 'onnxruntime_binding.node'), 'x');
    }
    pruneOtherPlatforms(pkg);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(bins)).toEqual([process.platform]);
    expect(readdirSync(join(bins, process.platform))).toEqual([process.arch]);
    const unknown = join(root, 'ort-unknown');
    mkdirSync(join(unknown, 'bin', 'napi-v6', 'other-os', 'x64'), { recursive: true });
    pruneOtherPlatforms(unknown);
    expect(readdirSync(join(unknown, 'bin', 'napi-v6'))).toEqual(['other-os']);
  });
});

describe('loadConfiguredEmbedder', () => {
  it('loads the pulled model the settings name from the cache folder, or the user’s own folder', async () => {
    const { loadConfiguredEmbedder } = await import('../../src/embed/embedder.js');
    const cache = join(root, 'cache');
    const env = { TSM_CACHE_DIR: cache };
    await expect(loadConfiguredEmbedder({ model: 'intfloat/multilingual-e5-small', modelDir: null }, {}, env)).rejects.toThrow(
      `no model folder at ${join(cache, 'models', 'intfloat--multilingual-e5-small')}: run \`tsm model pull intfloat/multilingual-e5-small\``,
    );
    cpSync(modelDir, join(cache, 'models', 'tsm-test--tiny'), { recursive: true });
    const pulled = await loadConfiguredEmbedder({ model: 'tsm-test/tiny', modelDir: null }, {}, env);
    const own = await loadConfiguredEmbedder({ model: 'cl-nagoya/ruri-v3-30m', modelDir: modelDir }, {}, env);
    try {
      expect(pulled.fingerprint).toBe(embedder.fingerprint);
      expect(own.fingerprint).toBe(embedder.fingerprint); // the folder's own tsm-model.json names it
    } finally {
      await Promise.all([pulled.close(), own.close()]);
    }
  });
});

describe('large models load through a memory-mapped copy with external weights', () => {
  it('gives the same vectors and fingerprint, writes the copy once, and again when the model changes', async () => {
    const { statSync: stat, existsSync: exists } = await import('node:fs');
    const dir = variant('mmap');
    const mapped = await loadEmbedder(dir, { externalMinBytes: 0 });
    const weights = join(dir, '.tsm-mmap', 'weights.bin');
    try {
      expect(exists(weights)).toBe(true);
      // The embedding table (vocabulary × 32 floats) moved out; the graph left behind is small.
      expect(stat(weights).size).toBeGreaterThanOrEqual(readFileSync(join(dir, 'model.onnx')).length - 4096);
      expect(stat(join(dir, '.tsm-mmap', 'model.onnx')).size).toBeLessThan(4096);
      expect(mapped.fingerprint).toBe(embedder.fingerprint);
      for (const t of ['犬の追跡', 'LoRa range']) expect(Array.from(await mapped.embedQuery(t))).toEqual(Array.from(await embedder.embedQuery(t)));
    } finally {
      await mapped.close();
    }
    const written = stat(weights).mtimeMs;
    await (await loadEmbedder(dir, { externalMinBytes: 0 })).close();
    expect(stat(weights).mtimeMs).toBe(written);
    writeTinyModel(dir, { seed: 9 });
    const changed = await loadEmbedder(dir, { externalMinBytes: 0 });
    try {
      const source = JSON.parse(readFileSync(join(dir, '.tsm-mmap', 'source.json'), 'utf8'));
      expect(source.sha256.startsWith(changed.spec.revision.slice('sha256:'.length))).toBe(true);
      expect(changed.spec.revision).not.toBe(embedder.spec.revision);
      expect(Array.from(await changed.embedQuery('犬'))).not.toEqual(Array.from(await embedder.embedQuery('犬')));
    } finally {
      await changed.close();
    }
  });

  it('leaves small models and unreadable layouts as they are', async () => {
    const { existsSync: exists } = await import('node:fs');
    const small = variant('small');
    await (await loadEmbedder(small)).close();
    expect(exists(join(small, '.tsm-mmap'))).toBe(false);
    // A torn model cannot be converted; the runtime then reports the original, as without the copy.
    const torn = variant('torn-mmap', (d) => {
      const b = readFileSync(join(d, 'model.onnx'));
      writeFileSync(join(d, 'model.onnx'), b.subarray(0, b.length >> 1));
    });
    await expect(loadEmbedder(torn, { externalMinBytes: 0 })).rejects.toThrow(/torn-mmap\/model\.onnx is not a model the ONNX runtime can load/);
    expect(exists(join(torn, '.tsm-mmap'))).toBe(false);
  });
});
