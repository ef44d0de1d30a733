// npm run bench -- [--corpus DIR|TARBALL] [--json] [--keep]
// Index a corpus into a temporary folder and print one JSON line of figures with their targets.
// Uses only the built CLI (as a user runs it), `tar`, and for in-process search the same search() the CLI calls.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openReader } from '../src/index/db.js';
import { search } from '../src/search/search.js';
import { QUERIES, WATCH_NOTE } from './queries.js';
import { percentile, timeRun, type Timed } from './measure.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSM = join(ROOT, 'bin/tsm');
const DEFAULT_CORPUS = resolve(ROOT, '../shared/corpora/handbook-ja.tar.gz');

const TARGETS = {
  full_index_s: 15,
  noop_reindex_s: 0.5,
  watch_p95_ms: 500,
  search_process_p50_ms: 85,
  search_process_p95_ms: 150,
  hook_process_p50_ms: 100,
  hook_process_p95_ms: 200,
  index_peak_rss_mb: 400,
  search_peak_rss_mb: 120,
};

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: DEFAULT_CORPUS },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    reps: { type: 'string', default: '3' },
  },
});
const reps = Math.max(1, Number(values.reps));
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

const work = mkdtempSync(join(tmpdir(), 'tsm-bench-'));
const vault = prepareCorpus(String(values.corpus), work);
const db = join(work, 'index.db');
const env: NodeJS.ProcessEnv = { ...process.env, TSM_VAULT: vault, TSM_DB: db, NO_COLOR: '1' };
delete env.TSM_SNIPPET_BUDGET;

try {
  const bytes = corpusBytes(vault);
  log(`corpus ${vault}: ${bytes.files} notes, ${(bytes.total / 1e6).toFixed(1)} MB`);

  const full = timeRun(TSM, ['index', '--json'], env);
  const summary = JSON.parse(full.stdout) as { added: number };
  log(`full index ${full.seconds.toFixed(2)} s, ${summary.added} notes`);
  const noop = timeRun(TSM, ['index', '--json'], env);
  const noopSummary = JSON.parse(noop.stdout) as { updated: number; added: number };
  log(`no-op re-index ${noop.seconds.toFixed(2)} s (${noopSummary.updated} updated)`);

  const searchRuns: Timed[] = [];
  for (let r = 0; r < reps; r++) for (const q of QUERIES) searchRuns.push(timeRun(TSM, ['search', q, '-f', 'json'], env));
  log(`search process: ${searchRuns.length} runs`);

  const hookRuns: Timed[] = [];
  for (let r = 0; r < reps; r++) {
    for (const q of QUERIES) {
      const payload = JSON.stringify({
        session_id: 'bench',
        transcript_path: '/nonexistent',
        cwd: vault,
        hook_event_name: 'UserPromptSubmit',
        prompt: q,
      });
      hookRuns.push(timeRun(TSM, ['hook'], env, payload));
    }
  }
  log(`hook process: ${hookRuns.length} runs`);

  const inProcess = measureInProcess(db);
  const watch = await measureWatch(vault, env);

  const ms = (xs: number[], p: number) => Math.round(percentile(xs, p) * 1000 * 10) / 10;
  const result = {
    corpus: String(values.corpus),
    notes: bytes.files,
    corpus_mb: round(bytes.total / 1e6, 1),
    full_index_s: round(full.seconds, 2),
    full_index_mb_s: round(bytes.total / 1e6 / full.seconds, 2),
    full_index_notes_s: Math.round(bytes.files / full.seconds),
    noop_reindex_s: round(noop.seconds, 3),
    watch_p50_ms: watch.p50,
    watch_p95_ms: watch.p95,
    search_process_p50_ms: ms(searchRuns.map((r) => r.seconds), 50),
    search_process_p95_ms: ms(searchRuns.map((r) => r.seconds), 95),
    search_inprocess_p50_ms: inProcess.p50,
    search_inprocess_p95_ms: inProcess.p95,
    hook_process_p50_ms: ms(hookRuns.map((r) => r.seconds), 50),
    hook_process_p95_ms: ms(hookRuns.map((r) => r.seconds), 95),
    index_peak_rss_mb: full.peakRssMb,
    search_peak_rss_mb: Math.max(...searchRuns.map((r) => r.peakRssMb ?? 0)) || null,
    index_size_mb: round(fileSize(db) / 1e6, 1),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      mem_gb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      node_start_p50_ms: nodeStartMs(env),
      // What bin/tsm starts: it drops NODE_EXTRA_CA_CERTS, which makes Node parse a CA bundle at start-up.
      node_start_without_extra_ca_p50_ms: nodeStartMs({ ...env, NODE_EXTRA_CA_CERTS: undefined }),
    },
    targets: TARGETS,
  };
  if (!values.json) printTable(result);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  if (values.keep) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

function prepareCorpus(corpus: string, into: string): string {
  if (!existsSync(corpus)) throw new Error(`corpus not found: ${corpus}`);
  const target = join(into, 'vault');
  if (statSync(corpus).isDirectory()) {
    cpSync(corpus, target, { recursive: true });
    return target;
  }
  const r = spawnSync('tar', ['-xzf', corpus, '-C', into], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
  const inner = ['handbook', 'vault'].map((d) => join(into, d)).find((d) => existsSync(d));
  if (!inner) throw new Error(`the tarball ${corpus} holds no handbook/ or vault/ folder`);
  return inner;
}

function corpusBytes(dir: string): { files: number; total: number } {
  const r = spawnSync('find', [dir, '-name', '*.md', '-type', 'f', '-printf', '%s\\n'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const sizes = r.stdout.split('\n').filter(Boolean).map(Number);
  return { files: sizes.length, total: sizes.reduce((a, b) => a + b, 0) };
}

/** `node -e 0` in an environment (p50 of 20): the floor under every process figure. */
function nodeStartMs(env: NodeJS.ProcessEnv): number {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env: clean });
    times.push(performance.now() - t0);
  }
  return round(percentile(times, 50), 1);
}

function measureInProcess(dbPath: string): { p50: number; p95: number } {
  const conn = openReader(dbPath);
  try {
    for (const q of QUERIES) search(conn, { query: q, limit: 10 }); // warm caches and statements
    const times: number[] = [];
    for (let r = 0; r < Math.max(5, reps); r++) {
      for (const q of QUERIES) {
        const t0 = performance.now();
        search(conn, { query: q, limit: 10 });
        times.push(performance.now() - t0);
      }
    }
    return { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1) };
  } finally {
    conn.close();
  }
}

/** 20 edits: append a unique token to a note, then poll the index (read-only) until search finds it. */
async function measureWatch(vaultDir: string, env: NodeJS.ProcessEnv): Promise<{ p50: number | null; p95: number | null }> {
  const watcher = spawn(process.execPath, [TSM, 'watch'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    await waitForLine(watcher, /watching/, 120_000);
    const note = join(vaultDir, WATCH_NOTE);
    const original = readFileSync(note, 'utf8');
    const conn = openReader(db);
    const latencies: number[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const token = `benchtoken${Date.now().toString(36)}x${i}`;
        const t0 = performance.now();
        writeFileSync(note, `${original}\n\n${token}\n`);
        for (;;) {
          if (search(conn, { query: token, limit: 1 }).hits.length > 0) break;
          if (performance.now() - t0 > 10_000) throw new Error(`edit ${i} was not searchable within 10 s`);
          await new Promise((r) => setTimeout(r, 5));
        }
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      conn.close();
      writeFileSync(note, original);
    }
    log(`watch latency over ${latencies.length} edits`);
    return { p50: round(percentile(latencies, 50), 1), p95: round(percentile(latencies, 95), 1) };
  } catch (err) {
    log(`watch not measured: ${(err as Error).message}`);
    return { p50: null, p95: null };
  } finally {
    watcher.kill('SIGTERM');
  }
}

function waitForLine(child: ChildProcess, re: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no "${re.source}" from the watcher within ${timeoutMs} ms`)), timeoutMs);
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      if (re.test(buf)) {
        clearTimeout(timer);
        resolvePromise();
      }
    });
    child.on('exit', (code) => reject(new Error(`the watcher exited (${code}): ${buf.slice(-500)}`)));
  });
}

function fileSize(p: string): number {
  let n = 0;
  for (const s of ['', '-wal']) if (existsSync(p + s)) n += statSync(p + s).size;
  return n;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function printTable(r: Record<string, unknown>): void {
  const t = r.targets as Record<string, number>;
  for (const [k, v] of Object.entries(r)) {
    if (k === 'targets' || typeof v === 'object') continue;
    const target = t[k] === undefined ? '' : `  (target ≤ ${t[k]})`;
    process.stderr.write(`${k.padEnd(26)} ${String(v).padStart(10)}${target}\n`);
  }
}
