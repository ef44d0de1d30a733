import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VaultFile } from '../../src/core/types.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';
import { findWorkerScript, runFileJob, runFileJobWithWorker } from '../../src/parse/pool.js';
import { INDEX_JOB, loadForIndex, type PreparedLoad } from '../../src/index/prepared-load.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tsm-parse-pool-'));
const distWorker = join(root, 'dist', 'index-worker.js');
let files: VaultFile[] = [];
let builtWorker: URL;

function noteText(i: number): string {
  return [
    '---',
    `title: Note ${i}`,
    `tags: [t${i % 7}]`,
    i % 5 === 0 ? 'date: 2024-01-0' + ((i % 9) + 1) : 'status: draft',
    '---',
    `# Heading ${i}`,
    `Text with [[Note ${(i + 1) % 200}]] and #tag${i % 3}.`,
    '',
    `## Section ${i}`,
    '```',
    `code ${i} [[not a link]]`,
    '```',
    ...Array.from({ length: i % 10 }, (_, k) => `- item ${k} [link](n${k}.md)`),
  ].join('\n');
}

beforeAll(async () => {
  files = [];
  for (let i = 0; i < 200; i++) {
    const name = `notes/n${i}.md`;
    mkdirSync(join(dir, 'notes'), { recursive: true });
    writeFileSync(join(dir, name), i === 13 ? Buffer.from([0, 1, 2, 3]) : noteText(i));
    files.push({ path: name, absPath: join(dir, name), size: 0, mtimeMs: 0 });
  }
  files.push({ path: 'missing.md', absPath: join(dir, 'missing.md'), size: 0, mtimeMs: 0 });
  // The worker entry bundled the way scripts/build.mjs bundles it, so the pool runs real threads in tests.
  const out = join(dir, 'worker', 'index-worker.js');
  await build({
    entryPoints: [join(root, 'src/index/index-worker.ts')],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent',
  });
  builtWorker = pathToFileURL(out);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(run: (onResult: (f: VaultFile, r: PreparedLoad) => void) => Promise<void>) {
  const results = new Map<string, PreparedLoad>();
  await run((file, result) => {
    expect(results.has(file.path)).toBe(false);
    results.set(file.path, result);
  });
  return results;
}

const expected = () => new Map(files.map((f) => [f.path, loadForIndex(f, DEFAULT_PARSE_OPTIONS)]));

describe('runFileJob with the index job', () => {
  it('finds no worker script when running from TypeScript sources', () => {
    expect(findWorkerScript(INDEX_JOB.workerScript)).toBeNull();
  });

  it('parses on the calling thread from sources, every file once', async () => {
    const results = await collect((cb) => runFileJob(INDEX_JOB, files, DEFAULT_PARSE_OPTIONS, cb));
    expect(results).toEqual(expected());
    expect(results.get('notes/n13.md')).toMatchObject({ kind: 'skipped' });
    expect(results.get('missing.md')).toEqual({ kind: 'gone' });
    const n7 = results.get('notes/n7.md');
    expect(n7?.kind === 'note' && n7.prepared.note.links.map((l) => l.target)).toEqual([
      'Note 8',
      ...Array.from({ length: 7 }, (_, k) => `n${k}.md`),
    ]);
  });

  it('gives the same results through worker threads', async () => {
    const results = await collect((cb) => runFileJobWithWorker(builtWorker, loadForIndex, files, DEFAULT_PARSE_OPTIONS, cb, 2));
    expect(results).toEqual(expected());
  }, 60_000);

  it.skipIf(!existsSync(distWorker))(
    'gives the same results through the built dist/index-worker.js (skipped when dist is not built: npm run build)',
    async () => {
      const results = await collect((cb) =>
        runFileJobWithWorker(pathToFileURL(distWorker), loadForIndex, files, DEFAULT_PARSE_OPTIONS, cb, 2),
      );
      expect(results).toEqual(expected());
    },
    60_000,
  );

  it('falls back to the calling thread when workers crash', async () => {
    const crashing = join(dir, 'crash-worker.mjs');
    writeFileSync(crashing, "throw new Error('worker failed to start');\n");
    const results = await collect((cb) =>
      runFileJobWithWorker(pathToFileURL(crashing), loadForIndex, files, DEFAULT_PARSE_OPTIONS, cb, 2),
    );
    expect(results).toEqual(expected());
  }, 60_000);

  it('rejects when the result callback throws, and stops its workers', async () => {
    let calls = 0;
    await expect(
      runFileJobWithWorker(builtWorker, loadForIndex, files, DEFAULT_PARSE_OPTIONS, () => {
        if (++calls === 40) throw new Error('disk full');
      }, 2),
    ).rejects.toThrow('disk full');
  }, 60_000);

  it('handles no files', async () => {
    const results = await collect((cb) => runFileJobWithWorker(builtWorker, loadForIndex, [], DEFAULT_PARSE_OPTIONS, cb, 2));
    expect(results.size).toBe(0);
  });
});

describe('runFileJobWithWorker thread counts', () => {
  it('parses on the calling thread for 0 or a non-number of threads', async () => {
    for (const threads of [0, Number.NaN, -3]) {
      const results = await collect((cb) => runFileJobWithWorker(builtWorker, loadForIndex, files, DEFAULT_PARSE_OPTIONS, cb, threads));
      expect(results.size).toBe(files.length);
    }
  });

  it('keeps working when one of two workers dies mid-run', async () => {
    // Workers that answer every batch with 'gone'; the one with an even thread id exits after its first.
    const flaky = join(dir, 'flaky-worker.mjs');
    writeFileSync(
      flaky,
      [
        "import { parentPort, workerData, threadId } from 'node:worker_threads';",
        'let answered = 0;',
        "parentPort.on('message', (req) => {",
        '  if (threadId % 2 === 0 && answered++ > 0) process.exit(3);',
        "  parentPort.postMessage({ batch: req.batch, results: req.files.map(() => ({ kind: 'gone' })) });",
        '});',
      ].join('\n'),
    );
    const results = await collect((cb) => runFileJobWithWorker(pathToFileURL(flaky), loadForIndex, files, DEFAULT_PARSE_OPTIONS, cb, 2));
    expect(results.size).toBe(files.length);
    expect([...results.values()].every((r) => r.kind === 'gone')).toBe(true);
  }, 60_000);
});
