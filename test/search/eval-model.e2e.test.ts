// `npm run eval -- --model DIR` through the built dist/eval.js with the tiny generated model: the set's
// cached index is embedded once (a second run embeds nothing), the neural ranker takes part (its variants
// differ from neural-off), and a folder that is not a model stops the eval with the runtime's fix.
// `--embedder FILE` likewise, with an encoder given as a JavaScript module (bench/use-lite/'s kind).
// Quality is not what this measures: the tiny model's weights are random.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, ROOT } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

const work = mkdtempSync(join(tmpdir(), 'tsm-eval-model-'));
const env = cleanEnv({ TSM_EVAL_CACHE: join(work, 'cache') });
const run = (args: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist', 'eval.js'), ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
const set = join(work, 'small.json');
const model = join(work, 'model');
// An encoder as a module: character counts folded into 16 dimensions (deterministic, no model file).
const hashEmbedder = join(work, 'hash-embedder.mjs');
const noEmbedder = join(work, 'no-embedder.mjs');

beforeAll(() => {
  assertBuilt();
  writeTinyModel(model);
  const shipped = JSON.parse(readFileSync(join(ROOT, 'eval/qrels/vault-example.json'), 'utf8'));
  writeFileSync(set, JSON.stringify({ ...shipped, name: 'small', queries: shipped.queries.slice(0, 8) }));
  writeFileSync(
    hashEmbedder,
    `export async function loadEmbedder() {
  const dims = 16;
  const vec = (t) => {
    const v = new Float32Array(dims);
    for (const ch of t) v[ch.codePointAt(0) % dims] += 1;
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  };
  return {
    spec: { name: 'test/hash', revision: '1', dims, queryPrefix: '', passagePrefix: '', maxTokens: 64 },
    fingerprint: 'test/hash@1',
    embedQuery: async (t) => vec(t),
    embedPassage: async (t) => (t.trim() ? [vec(t)] : []),
    close: async () => {},
  };
}
`,
  );
  writeFileSync(noEmbedder, 'export const nothing = 1;\n');
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run eval -- --model', () => {
  it('embeds the set’s index once and runs the neural ranker', () => {
    const first = run(['--qrels', set, '--model', model, '--compare', 'neural-off', 'neural-add-1', '--json']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/eval: neural ranker with tsm-test\/tiny \(32 dims\)/);
    expect(first.stderr).toMatch(/eval: embedded \d+ sections of /);
    const diff = JSON.parse(first.stdout).overall as { wins: number; losses: number; ties: number };
    // At weight 1 and free to add notes, even a random model moves some results (or the ranker did not run).
    const b = JSON.parse(first.stdout).sets.small;
    expect(JSON.stringify(b.a) !== JSON.stringify(b.b) || diff.wins + diff.losses > 0).toBe(true);

    const second = run(['--qrels', set, '--model', model]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/embedded/);
  });

  it('--embedder: a module’s encoder embeds the index once and ranks; a module without one, or both flags, exit 1', () => {
    const first = run(['--qrels', set, '--embedder', hashEmbedder, '--compare', 'neural-off', 'neural-add-1', '--json']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/eval: neural ranker with test\/hash \(16 dims\)/);
    expect(first.stderr).toMatch(/eval: embedded \d+ sections of /);
    const second = run(['--qrels', set, '--embedder', hashEmbedder]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/embedded/);
    // The default takes the added notes from a copy of the index's vectors in memory, as a resident does:
    // the very ranking of reading every vector at search time (neural-add-1).
    const same = run(['--qrels', set, '--embedder', hashEmbedder, '--compare', 'base', 'neural-add-1', '--json']);
    expect(same.status, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).overall).toMatchObject({ wins: 0, losses: 0 });
    const sides = JSON.parse(same.stdout).sets.small;
    expect(sides.a).toEqual(sides.b);

    expect(run(['--qrels', set, '--embedder', noEmbedder])).toMatchObject({ status: 1, stderr: expect.stringMatching(/exports no loadEmbedder\(\)/) });
    expect(run(['--qrels', set, '--embedder', hashEmbedder, '--model', model])).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/--model and --embedder: choose one/),
    });
  });

  it('a folder that is not a model: the runtime’s message, exit 1', () => {
    const r = run(['--qrels', set, '--model', join(work, 'nothing-here')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^eval: .*nothing-here/m);
  });
});
