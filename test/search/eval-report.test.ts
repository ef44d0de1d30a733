import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCompare, groups, pairedDiff, type QueryRow } from '../../src/eval/report.js';
import { loadSet } from '../../src/eval/sets.js';
import { RANK_VARIANTS, variantTuning } from '../../src/search/variants.js';

const row = (query: string, ndcg10: number, kind = 'keyword', lang = 'en'): QueryRow => ({ query, kind, lang, ndcg10, mrr10: ndcg10, recall5: ndcg10, shown5: 1 });

describe('eval: paired comparison', () => {
  it('gives the mean difference B − A, its standard error and wins/losses/ties, matching queries by text', () => {
    const a = [row('q1', 0.5), row('q2', 0.5), row('q3', 1), row('q4', 0.2)];
    // Listed in another order, and with a query A does not have: pairs are by text, unmatched ones left out.
    const b = [row('q4', 0.2), row('q3', 0.5), row('q2', 0.7), row('q1', 0.9), row('extra', 1)];
    const p = pairedDiff(a, b);
    // Differences: +0.4, +0.2, −0.5, 0 → mean 0.025; sample SD √(0.4475/3) = 0.38622; SE = SD / 2.
    expect(p.n).toBe(4);
    expect(p.mean).toBeCloseTo(0.025, 10);
    expect(p.se).toBeCloseTo(Math.sqrt(0.4475 / 3) / 2, 10);
    expect([p.wins, p.losses, p.ties]).toEqual([2, 1, 1]);
  });

  it('has no standard error for a single pair', () => {
    expect(pairedDiff([row('q', 0.1)], [row('q', 0.4)]).se).toBe(0);
  });

  it('groups by all, each kind, each language; the table has a line per group', () => {
    const rows = [row('a', 1, 'keyword', 'ja'), row('b', 0, 'prompt', 'en'), row('c', 0.5, 'prompt', 'ja')];
    expect(groups(rows).map(([g, rs]) => `${g}:${rs.length}`)).toEqual(['all:3', 'keyword:1', 'prompt:2', 'en:1', 'ja:2']);
    const table = formatCompare('t', rows, rows.map((r) => ({ ...r, ndcg10: 1 })));
    expect(table.split('\n')).toHaveLength(2 + 5);
    expect(table).toMatch(/prompt\s+2\s+0\.250→1\.000.*\+0\.750 ± 0\.250\s+2\/0\/0/);
  });
});

describe('eval: query sets and variants', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-qrels-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('reads a set with its vault and date, and a bare array of queries', () => {
    const f = join(dir, 'one.json');
    writeFileSync(f, JSON.stringify({ name: 'one', vault: { dir: 'vault-example' }, now: '2026-11-22', queries: [{ query: 'x', relevant: { 'a.md': 2 } }] }));
    expect(loadSet(f)).toMatchObject({ name: 'one', now: '2026-11-22', vault: { dir: 'vault-example' } });
    const g = join(dir, 'bare.json');
    writeFileSync(g, JSON.stringify([{ query: 'x', relevant: {} }]));
    expect(loadSet(g)).toMatchObject({ name: 'bare', queries: [{ query: 'x' }] });
  });

  it("reads a dated twin's queries and date from the set it names, never a copy", () => {
    writeFileSync(join(dir, 'plain.json'), JSON.stringify({ name: 'plain', vault: { dir: 'v' }, now: '2026-11-28', queries: [{ query: 'y', relevant: { 'b.md': 2 } }] }));
    const twin = join(dir, 'twin.json');
    writeFileSync(twin, JSON.stringify({ name: 'twin', vault: { tarball: 'v-dated.tar.gz', root: 'v-dated' }, queriesOf: 'plain.json' }));
    expect(loadSet(twin)).toMatchObject({ name: 'twin', now: '2026-11-28', vault: { root: 'v-dated' }, queries: [{ query: 'y', relevant: { 'b.md': 2 } }] });
    writeFileSync(twin, JSON.stringify({ name: 'twin', vault: { dir: 'v' }, queriesOf: 'missing.json' }));
    expect(() => loadSet(twin)).toThrow(/missing\.json/);
    writeFileSync(twin, JSON.stringify({ name: 'twin', vault: { dir: 'v' }, queriesOf: 'twin.json' }));
    expect(() => loadSet(twin)).toThrow(/twin\.json: "queriesOf" comes back to .*twin\.json/);
  });

  it('rejects a malformed set or date with the file named', () => {
    const f = join(dir, 'bad.json');
    writeFileSync(f, JSON.stringify({ vault: { dir: 'v' }, now: '22.11.2026', queries: [] }));
    expect(() => loadSet(f)).toThrow(/bad\.json: "now" must be YYYY-MM-DD/);
    writeFileSync(f, JSON.stringify({ queries: [] }));
    expect(() => loadSet(f)).toThrow(/bad\.json: expected/);
  });

  it('combines variants with +, later ones winning, and names the known ones on a typo', () => {
    expect(variantTuning(undefined)).toEqual({});
    expect(variantTuning('base')).toEqual({ rankerWeights: {} });
    const names = Object.keys(RANK_VARIANTS).filter((n) => n !== 'base');
    expect(variantTuning(`base+${names[0]}`)).toMatchObject(RANK_VARIANTS[names[0]]);
    expect(() => variantTuning('base+nope')).toThrow(/unknown ranking variant "nope" \(known: base/);
  });

  it('the shipped sets (run by default, and sealed) all load, pin a date and have graded queries of known kinds', async () => {
    const { defaultSets } = await import('../../src/eval/sets.js');
    const sets = defaultSets(join(__dirname, '..', '..', 'eval', 'qrels'));
    expect(sets.length).toBeGreaterThanOrEqual(3);
    const sealed = defaultSets(join(__dirname, '..', '..', 'eval', 'sealed'));
    expect(sealed.length).toBeGreaterThanOrEqual(2);
    // A sealed set is never also in the default run, under its name or by its queries.
    const names = new Set(sets.map((s) => s.name));
    const asked = new Set(sets.flatMap((s) => s.queries.map((q) => q.query)));
    for (const s of sealed) {
      expect(names.has(s.name), s.name).toBe(false);
      for (const q of s.queries) expect(asked.has(q.query), `${s.name}: ${q.query}`).toBe(false);
    }
    sets.push(...sealed);
    // The paired set (eval/paired/): another set's needs asked in the other language, run with --qrels.
    sets.push(...defaultSets(join(__dirname, '..', '..', 'eval', 'paired')));
    for (const s of sets) {
      expect(s.now, s.name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const q of s.queries) {
        expect(['keyword', 'prompt', 'paraphrase'], `${s.name}: ${q.query}`).toContain(q.kind);
        expect(Object.values(q.relevant).some((g) => g === 2), `${s.name}: ${q.query} has a grade 2`).toBe(true);
      }
      expect(new Set(s.queries.map((q) => q.query)).size, `${s.name}: queries unique`).toBe(s.queries.length);
    }
  });
});

describe('eval: sets whose corpus is not here', () => {
  it('a corpus is available when extracted in the cache or its tarball is found; a repository folder always', async () => {
    const { vaultAvailable } = await import('../../src/eval/sets.js');
    const cache = mkdtempSync(join(tmpdir(), 'tsm-eval-cache-'));
    const corpora = mkdtempSync(join(tmpdir(), 'tsm-corpora-'));
    const saved = { cache: process.env.TSM_EVAL_CACHE, corpora: process.env.TSM_CORPORA };
    process.env.TSM_EVAL_CACHE = cache;
    process.env.TSM_CORPORA = corpora;
    try {
      const root = mkdtempSync(join(tmpdir(), 'tsm-repo-'));
      const set = (vault: object) => ({ name: 'x', file: '/x.json', vault, queries: [] }) as never;
      expect(vaultAvailable(set({ dir: 'vault-example' }), root)).toBe(true);
      expect(vaultAvailable(set({ tarball: 'help.tar.gz', root: 'help' }), root)).toBe(false);
      writeFileSync(join(corpora, 'help.tar.gz'), '');
      expect(vaultAvailable(set({ tarball: 'help.tar.gz', root: 'help' }), root)).toBe(true);
      mkdirSync(join(cache, 'vaults', 'other'), { recursive: true });
      expect(vaultAvailable(set({ tarball: 'other.tar.gz', root: 'other' }), root)).toBe(true);
    } finally {
      for (const [k, v] of [['TSM_EVAL_CACHE', saved.cache], ['TSM_CORPORA', saved.corpora]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe('eval: compare sides', () => {
  it('reads a variant, a revision and rev:variant, and names the choices on a typo', async () => {
    const { parseSide } = await import('../../src/eval/builds.js');
    const root = join(__dirname, '..', '..');
    expect(parseSide('base', root)).toEqual({ label: 'base', variant: 'base', commit: null });
    expect(parseSide('no-second+k-30', root)).toMatchObject({ variant: 'no-second+k-30', commit: null });
    const head = parseSide('HEAD', root);
    expect(head.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(head.variant).toBe('base');
    expect(parseSide('HEAD:no-second', root)).toMatchObject({ commit: head.commit, variant: 'no-second' });
    expect(() => parseSide('no-such-thing-here', root)).toThrow(/neither a ranking variant \(base, .*\) nor a git revision/);
  });
});
