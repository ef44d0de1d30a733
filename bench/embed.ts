// npm run bench:embed -- --model DIR [--threads N] [--inline] [--json]
// The embedding runtime's speed and memory on one model folder: runtime import, model load, a short and a
// 300-token query, passage throughput, resident memory. Without model weights on our machines, DIR is the
// random-weight model of ruri-v3-30m's shape that bench/make-embed-model.py writes (docs/embeddings.md).
// One process, one thread by default (as the indexer and the query server run it).
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { loadEmbedder } from '../src/embed/embedder.js';
import { loadRuntime } from '../src/embed/runtime.js';
import { percentile } from './measure.js';

const TARGETS = { resident_rss_mb: 700 };

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    threads: { type: 'string', default: '1' },
    reps: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
    // Load model.onnx as it is, not through the memory-mapped copy (src/embed/onnx-external.ts): to compare.
    inline: { type: 'boolean', default: false },
  },
});
if (!values.model) {
  process.stderr.write('usage: npm run bench:embed -- --model DIR [--threads N] [--reps N] [--json]\n(make DIR with: /usr/bin/python3 bench/make-embed-model.py DIR)\n');
  process.exit(2);
}
const reps = Math.max(3, Number(values.reps));
const threads = Math.max(1, Number(values.threads));
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
/** Peak resident set of this process so far (VmHWM), in MB. */
const peakRss = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1000;
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

// Japanese note text: one token per character for the bench tokenizer, ~2 characters a token for ruri's.
const SENTENCE = '犬の首輪に付けたLoRaモジュールで、谷の奥から山頂の受信機まで電波が届くかを確かめた。';
const textOf = (chars: number): string => SENTENCE.repeat(Math.ceil(chars / SENTENCE.length)).slice(0, chars);

async function main(): Promise<void> {
  const rssStart = mb(process.memoryUsage().rss);
  let t0 = process.hrtime.bigint();
  await loadRuntime();
  const runtimeImportMs = ms(t0);

  t0 = process.hrtime.bigint();
  const e = await loadEmbedder(values.model!, { threads, ...(values.inline ? { externalMinBytes: Number.POSITIVE_INFINITY } : {}) });
  const modelLoadMs = ms(t0);
  const rssLoaded = mb(process.memoryUsage().rss);
  log(`${e.spec.name}: ${e.spec.dims}-d, loaded in ${Math.round(modelLoadMs)} ms (runtime import ${Math.round(runtimeImportMs)} ms)`);

  const time = async (fn: () => Promise<unknown>): Promise<number[]> => {
    await fn(); // warm-up
    const out: number[] = [];
    for (let i = 0; i < reps; i++) {
      const t = process.hrtime.bigint();
      await fn();
      out.push(ms(t));
    }
    return out;
  };
  const short = await time(() => e.embedQuery('LoRaの到達距離'));
  // 300 tokens with the prefix and the special tokens: 300 − <s> − </s> − 6 prefix tokens.
  const long = await time(() => e.embedQuery(textOf(292)));
  // Passages as the indexer sends them: sections of ~200 tokens (heading path + text).
  const passages = Array.from({ length: 60 }, (_, i) => `ノート${i} > 測定\n${textOf(190)}`);
  t0 = process.hrtime.bigint();
  let chunks = 0;
  for (const p of passages) chunks += (await e.embedPassage(p)).length;
  const passageSeconds = ms(t0) / 1000;
  // One long section: split into 512-token windows.
  const longSection = await e.embedPassage(textOf(2000));
  const rssAfter = mb(process.memoryUsage().rss);
  await e.close();

  const figures = {
    model: e.spec.name,
    dims: e.spec.dims,
    threads,
    weights: values.inline ? 'inline' : 'memory-mapped',
    runtime_import_ms: Math.round(runtimeImportMs),
    model_load_ms: Math.round(modelLoadMs),
    query_short_p50_ms: round1(percentile(short, 50)),
    query_short_p95_ms: round1(percentile(short, 95)),
    query_300tok_p50_ms: round1(percentile(long, 50)),
    query_300tok_p95_ms: round1(percentile(long, 95)),
    passages_per_s_200tok: round1(chunks / passageSeconds),
    long_section_2000_chars_chunks: longSection.length,
    rss_start_mb: rssStart,
    rss_loaded_mb: rssLoaded,
    rss_after_mb: rssAfter,
    // The kernel updates VmHWM lazily: a sample taken since can be higher.
    peak_rss_mb: Math.round(Math.max(peakRss(), rssLoaded, rssAfter)),
    targets: TARGETS,
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, shared`,
  };
  if (values.json) process.stdout.write(JSON.stringify(figures) + '\n');
  else for (const [k, v] of Object.entries(figures)) process.stdout.write(`${k.padEnd(32)} ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
  if (figures.peak_rss_mb > TARGETS.resident_rss_mb) process.exitCode = 1;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

await main();
