// Bundles the CLI into dist/ with esbuild. One bundle per entry point, with code splitting so that
// heavy modules (remark, chokidar, the MCP SDK) live in chunks loaded only by the commands that use them.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: {
    tsm: 'src/cli/main.ts',
    'parse-worker': 'src/parse/worker.ts',
    eval: 'src/eval/main.ts',
    bench: 'bench/bench.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native addon: must stay a real require of the installed package.
  external: ['better-sqlite3'],
  define: { __TSM_VERSION__: JSON.stringify(version) },
  // CommonJS dependencies (gray-matter, js-yaml, yargs helpers) call require(); give ESM chunks one.
  banner: {
    js: "import { createRequire as __tsmCreateRequire } from 'node:module'; const require = __tsmCreateRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
});
