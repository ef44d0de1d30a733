// `tsm search --verbose` on why the neural ranker took no part, through the built CLI: a vault with no
// model, one whose model no resident process holds, a query with no words. Measured before: all three
// said "no resident process (tsm serve, tsm watch) with a model for this vault", the first as if a model
// were there and only its process missing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm, writeFiles } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

let root = '';
let vault = '';
// No model pulled: an empty cache of the test's own, never the developer's.
const env = () => ({ TSM_CACHE_DIR: join(root, 'cache'), HOME: join(root, 'home') });
const verbose = (...query: string[]) => tsm(['search', '--vault', vault, '--verbose', ...query], { env: env() });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-search-verbose-'));
  vault = join(root, 'vault');
  writeFiles(vault, { '.tsm/config.json': '{}', 'antenna.md': '# Antenna\n\nthe yagi on the ridge\n' });
  expect(tsm(['index', '--vault', vault], { env: env() }).code).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('tsm search --verbose: the neural ranker', () => {
  it('a vault with no model: says the model is missing, and how to get one, not that a process is', () => {
    const r = verbose('antenna');
    expect(r.code, r.stderr).toBe(0);
    const model = join(root, 'cache', 'models', 'cl-nagoya--ruri-v3-30m');
    expect(r.stderr).toContain(
      `tsm: lexical search only: the neural ranker needs an embedding model, and this vault has no usable one (no model folder at ${model}: run \`tsm model pull cl-nagoya/ruri-v3-30m\`; optional: docs/embeddings.md)\n`,
    );
    expect(r.stderr).not.toContain('resident');
  });

  it('a query of filters only: no words to embed', () => {
    expect(verbose('type:knowledge').stderr).toContain('tsm: lexical search only: the query has no words to embed\n');
  });

  it('a model no resident process holds: says so, and what to start', () => {
    writeTinyModel(join(root, 'model'));
    writeFiles(vault, { '.tsm/config.json': JSON.stringify({ modelDir: '../model' }) });
    expect(verbose('antenna').stderr).toContain("tsm: lexical search only: no resident process (tsm serve, tsm watch) holds the vault's model: start one to rank by meaning too\n");
  });
});
