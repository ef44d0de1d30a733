// What a user sees of an index, through real `tsm search -f json` and `tsm status --json` processes:
// hits without their ids (ids differ between builds), scores rounded, plus the status counts.
import { tsmAsync } from '../helpers/cli.js';
import { COMPARE_QUERIES } from './vault-gen.js';

export interface SearchSnapshot {
  /** query → hits as compared */
  searches: Record<string, string[]>;
  counts: Record<string, unknown>;
}

interface JsonHit {
  id: number;
  score: number;
  [k: string]: unknown;
}

/** Significant digits kept of a score: equal builds give bit-equal scores; this only hides float printing. */
const SCORE_DIGITS = 6;

function comparable(hit: JsonHit): string {
  const { id: _id, rank: _rank, score, ...rest } = hit;
  return JSON.stringify({ score: Number(score.toPrecision(SCORE_DIGITS)), ...rest });
}

async function searchOnce(vault: string, db: string, query: string): Promise<string[]> {
  const r = await tsmAsync(['search', '--vault', vault, '--db', db, '-f', 'json', '-n', '30', '--all-sections', query]);
  if (r.code !== 0) throw new Error(`tsm search ${JSON.stringify(query)} failed (exit ${r.code}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as JsonHit[]).map(comparable);
}

export async function statusCounts(vault: string, db: string): Promise<Record<string, unknown>> {
  const r = await tsmAsync(['status', '--vault', vault, '--db', db, '--json']);
  if (r.code !== 0) throw new Error(`tsm status failed (exit ${r.code}): ${r.stderr}`);
  const s = JSON.parse(r.stdout) as Record<string, unknown>;
  const { notes, byType, sections, links, unresolvedLinks, warnings, schemaVersion } = s;
  return { notes, byType, sections, links, unresolvedLinks, warnings, schemaVersion };
}

/** Runs the comparison queries two at a time (the machine has two cores). */
export async function snapshot(vault: string, db: string, queries: readonly string[] = COMPARE_QUERIES): Promise<SearchSnapshot> {
  const searches: Record<string, string[]> = {};
  for (let i = 0; i < queries.length; i += 2) {
    const pair = queries.slice(i, i + 2);
    const results = await Promise.all(pair.map((q) => searchOnce(vault, db, q)));
    pair.forEach((q, j) => (searches[q] = results[j]));
  }
  return { searches, counts: await statusCounts(vault, db) };
}

/** Human-readable differences between two snapshots (empty: equal). */
export function snapshotDifferences(got: SearchSnapshot, want: SearchSnapshot): string[] {
  const out: string[] = [];
  if (JSON.stringify(got.counts) !== JSON.stringify(want.counts)) {
    out.push(`status differs: ${JSON.stringify(got.counts)} vs clean ${JSON.stringify(want.counts)}`);
  }
  for (const [q, hits] of Object.entries(want.searches)) {
    const g = got.searches[q] ?? [];
    if (JSON.stringify(g) === JSON.stringify(hits)) continue;
    const at = hits.findIndex((h, i) => g[i] !== h);
    const i = at === -1 ? hits.length : at;
    out.push(`search ${JSON.stringify(q)}: ${g.length} vs clean ${hits.length} hits; first difference at #${i + 1}:\n  got   ${g[i]}\n  clean ${hits[i]}`);
  }
  return out;
}
