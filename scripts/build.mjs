// Bundles the CLI into dist/ with esbuild, in two builds:
//
// - dist/tsm.cjs, the entry point: one CommonJS file holding everything `tsm search` and `tsm hook` run
//   (argument parsing, config, the SQLite reader, search, the formats, the hook handlers). A whole-process
//   search pays for every module it loads, so the fast path is a single module with nothing to resolve.
// - dist/lazy/*.js and dist/chunks/: every other command, code-split so that heavy modules (remark,
//   chokidar, yargs, the MCP SDK) load only in the commands that use them. tsm.cjs reaches them through
//   the imports LAZY names, which stay real imports of dist/lazy/ files.
//
// better-sqlite3's JavaScript is bundled; its native addon stays in node_modules (src/index/db.ts). So
// package.json's "dependencies" holds better-sqlite3 alone and every bundled package is a devDependency
// (test/cli/pack.e2e.test.ts checks): listed there, each was downloaded by every install and never read.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Modules the fast path imports only on rare paths, and the dist/lazy/ entry that serves each. */
const LAZY = {
  'src/cli/cli.ts': 'cli', // every command but search and hook
  'src/cli/yargs-cli.ts': 'yargs-cli', // (cli.ts's) --help, and every command line that is not plain
  'src/index/sync.ts': 'sync', // the first search of a vault builds its index
  'src/sessions/ingest-and-index.ts': 'session-ingest', // SessionEnd / PreCompact: transcripts become notes
  'src/embed/socket-client.ts': 'query-client', // tsm search, when a resident model's socket is there
  'src/search/path-notice.ts': 'path-notice', // tsm search with a path filter: why it found nothing (ignore rules)
  'src/embed/status.ts': 'embed-status', // tsm search --verbose with no resident: whether the vault has a model
};

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  define: { __TSM_VERSION__: JSON.stringify(version) },
  // CommonJS dependencies (gray-matter, js-yaml, yargs helpers, better-sqlite3) call require(); give ESM one.
  banner: {
    js: "import { createRequire as __tsmCreateRequire } from 'node:module'; const require = __tsmCreateRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
  // better-sqlite3 needs `bindings` only to find its addon, and db.ts names the addon: leave it out of bundles.
  external: ['bindings'],
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  ...common,
  entryPoints: {
    ...Object.fromEntries(Object.entries(LAZY).map(([src, name]) => [`lazy/${name}`, src])),
    'index-worker': 'src/index/index-worker.ts',
    'semantic-worker': 'src/index/semantic/train-worker.ts',
    'svd-worker': 'src/index/semantic/helper-worker.ts',
    eval: 'src/eval/main.ts',
    bench: 'bench/bench.ts',
    'bench-embed': 'bench/embed.ts',
  },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});

/** Leaves the LAZY modules out of tsm.cjs, as imports of their dist/lazy/ entries. */
const lazyImports = {
  name: 'lazy-imports',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || !args.importer) return undefined;
      const resolved = await b.resolve(args.path.replace(/\.js$/, '.ts'), { kind: args.kind, resolveDir: args.resolveDir });
      const rel = resolved.path.slice(process.cwd().length + 1);
      return LAZY[rel] ? { path: `./lazy/${LAZY[rel]}.js`, external: true } : undefined;
    });
  },
};

const fast = await build({
  ...common,
  format: 'cjs',
  // CommonJS: Node loads it without starting its ESM loader, and builtins come by require() instead of
  // ESM facades (importing node:fs as ESM reads every export, which loads fs/promises, readline, streams…).
  // Its imports of dist/lazy/ go through __tsmImport: bin/tsm runs this file as a vm.Script (for V8's code
  // cache), where import() has no loader, and hands in one of its own as __tsmLoad.
  banner: {
    js: [
      "const __tsmImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
      "const __tsmImport = (spec) => { const url = new URL(spec, __tsmImportMetaUrl).href; return typeof __tsmLoad === 'function' ? __tsmLoad(url) : import(url); };",
    ].join('\n'),
  },
  define: { ...common.define, 'import.meta.url': '__tsmImportMetaUrl' },
  entryPoints: { tsm: 'src/cli/main.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  splitting: false,
  // Minified: every search and prompt hook reads the whole file and hands it to V8 with its code cache, and
  // on this project's slower 2-core machine (Node's own start 60-80 ms) the 478 KB bundle cost ~4 ms to read
  // and ~7.5 ms to load from the cache; minified (258 KB) ~1.9 and ~6.6 ms. Interleaved, 5 x the 20 bench
  // queries: tsm search p50 -3.2 ms, tsm hook p50 -3.5 ms (2026-11-29; docs/performance.md). Names are
  // minified too (whitespace and syntax alone saved ~0.7 ms): a stack trace names the bundle's minified
  // functions, and dist/tsm.cjs.map maps a line:column back to the source. Errors tsm explains carry no
  // stack; their names are set explicitly (`override name = 'IndexError'`), never read from a class.
  minify: true,
  plugins: [lazyImports],
});

// The fast path must stay one module: a static import of anything but Node's own modules, or one of the
// heavy packages bundled in, would put its load time on every search and every prompt.
const out = fast.metafile.outputs['dist/tsm.cjs'];
const stray = out.imports.filter((i) => !i.path.startsWith('node:') && !builtinModules.includes(i.path) && i.path !== 'bindings' && !(i.kind === 'dynamic-import' && i.path.startsWith('./lazy/')));
const heavy = Object.keys(out.inputs).filter((p) => /node_modules\/(remark|unified|mdast|micromark|chokidar|yargs|@modelcontextprotocol|zod|gray-matter|@huggingface|onnxruntime)/.test(p) || /src\/embed\/(embedder|runtime|model-folder|download|setup)\.ts$/.test(p));
if (process.env.TSM_BUILD_META) writeFileSync(process.env.TSM_BUILD_META, JSON.stringify(fast.metafile));
// Node's own modules cost a fresh process too: node:crypto ~2 ms (16 internal modules), node:os 0.2 ms, as
// much as a search's whole semantic ranker. The fast path loads only these four (better-sqlite3 needs fs,
// path and util); a module it needs on a rare path comes from process.getBuiltinModule() where it is used.
const FAST_BUILTINS = new Set(['fs', 'path', 'util', 'module']);
const builtins = out.imports.filter((i) => i.kind !== 'dynamic-import' && (i.path.startsWith('node:') || builtinModules.includes(i.path)));
const costly = builtins.map((i) => i.path.replace(/^node:/, '')).filter((p) => !FAST_BUILTINS.has(p));
if (stray.length || heavy.length || costly.length) {
  throw new Error(
    `dist/tsm.cjs must stay lean: imports ${JSON.stringify(stray.map((i) => i.path))}, bundles ${JSON.stringify(heavy.slice(0, 5))}, ` +
      `loads Node's ${JSON.stringify([...new Set(costly)])} (use process.getBuiltinModule where it is needed)`,
  );
}

const bundlePath = new URL('../dist/tsm.cjs', import.meta.url);
const lazyCount = out.imports.filter((i) => i.kind === 'dynamic-import').length;
const code = readFileSync(bundlePath, 'utf8');
const routed = code.replaceAll('import("./lazy/', '__tsmImport("./lazy/');
if (routed.split('__tsmImport("./lazy/').length - 1 !== lazyCount || /\bimport\("(?!node:)/.test(routed.replace(': import(url)', ''))) {
  throw new Error('dist/tsm.cjs: every dynamic import must be one of the lazy imports, routed through __tsmImport');
}
// ASCII only: esbuild escapes strings but leaves regular expressions and comments as written, and one
// character past Latin-1 makes V8 hold the whole source as a two-byte string (0.5 MB instead of 0.26 MB,
// read and copied on every search and hook; it tipped `tsm --version` into a garbage collection). A
// \uXXXX escape means the same character in a string, a regular expression (with or without /u: a
// surrogate pair written as two escapes is one character) and a comment.
writeFileSync(bundlePath, routed.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

try {
  trainCodeCache();
} catch (err) {
  // Not worth failing an install for: the first search or hook writes the cache instead.
  process.stderr.write(`build: no code cache written (${err.message.split('\n')[0]})\n`);
}

/**
 * Writes dist/tsm.v8cache (see bin/tsm) by running what it is for: searches in every format and a prompt
 * hook over vault-example, then a search and a hook over a generated vault big enough for the semantic model
 * (vault-example, 42 notes, is too small to train one, and a function no run calls is left out of the
 * cache: each search then compiled the semantic lists from source, ~1 ms of a search on the handbook).
 * Each run adds the functions it compiled. Without vault-example (a packed install), the first search or
 * hook writes it.
 */
function trainCodeCache() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const vault = join(root, 'vault-example');
  if (!existsSync(vault)) return;
  const work = mkdtempSync(join(tmpdir(), 'tsm-build-'));
  try {
    const env = { ...process.env, TSM_VAULT: vault, TSM_DB: join(work, 'index.db'), NO_COLOR: '1' };
    const tsm = (args, input = '', extra = {}) => {
      const r = spawnSync(process.execPath, [join(root, 'bin/tsm'), ...args], { env: { ...env, ...extra }, input, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`tsm ${args.join(' ')} failed while writing the code cache: ${r.stderr}`);
    };
    tsm(['index']);
    const train = { TSM_WRITE_CODE_CACHE: '1' };
    for (const format of ['text', 'json', 'xml', 'md']) tsm(['search', 'LoRa antenna range test 電池', '-f', format], '', train);
    const prompt = { session_id: 'build', transcript_path: '/nonexistent', cwd: vault, hook_event_name: 'UserPromptSubmit', prompt: 'How far did the LoRa collar reach in the valley test?' };
    tsm(['hook'], JSON.stringify(prompt), train);

    // 40 notes of 10 sections on four topics (≥ 300 sections: the model trains), then the same runs on it.
    const topics = [
      ['antenna', 'radio', 'signal', 'range', 'battery', 'collar', 'gateway', 'packet'],
      ['sourdough', 'flour', 'oven', 'starter', 'crust', 'proof', 'dough', 'bake'],
      ['garden', 'soil', 'seeds', 'compost', 'tomato', 'mulch', 'harvest', 'water'],
      ['invoice', 'budget', 'expense', 'receipt', 'refund', 'ledger', 'payment', '経費'],
    ];
    const big = join(work, 'big');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 40; n++) {
      const words = topics[n % topics.length];
      const parts = Array.from({ length: 10 }, (_, k) => `## Part ${k + 1}\n\n${Array.from({ length: 30 }, () => words[Math.floor(next() * words.length)]).join(' ')}\n`);
      mkdirSync(join(big, 'notes'), { recursive: true });
      writeFileSync(join(big, 'notes', `n${n}.md`), `# Note ${n}\n\n${parts.join('\n')}`);
    }
    const bigEnv = { TSM_VAULT: big, TSM_DB: join(work, 'big.db') };
    tsm(['index'], '', bigEnv);
    for (const format of ['text', 'json']) tsm(['search', 'antenna range on battery', '-f', format], '', { ...bigEnv, ...train });
    tsm(['hook'], JSON.stringify({ ...prompt, cwd: big, prompt: 'How do I keep the sourdough starter alive and bake a crust?' }), { ...bigEnv, ...train });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
