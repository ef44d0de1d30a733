#!/usr/bin/env node
// Parser throughput on a folder of notes, single-threaded (a measuring script, not a unit test).
//
//   node test/parse/bench-parse.mjs [DIR] [--verify] [--repeat N]
//
// DIR defaults to /tmp/handbook-parse/handbook (extract ../shared/corpora/handbook-ja.tar.gz there).
// --verify also checks that the fast block structure equals a whole-note remark-parse on every file.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const verify = args.includes('--verify');
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt === -1 ? 1 : Number(args[repeatAt + 1]);
const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--repeat') ?? '/tmp/handbook-parse/handbook';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tsm-bench-parse-'));
const entry = join(work, 'entry.ts');
writeFileSync(
  entry,
  [
    `export { loadNote } from ${JSON.stringify(join(root, 'src/parse/load-note.ts'))};`,
    `export { DEFAULT_PARSE_OPTIONS } from ${JSON.stringify(join(root, 'src/parse/options.ts'))};`,
    `export { referenceStructure } from ${JSON.stringify(join(root, 'test/parse/reference-structure.ts'))};`,
    `export { fastStructure } from ${JSON.stringify(join(root, 'test/parse/fast-structure.ts'))};`,
  ].join('\n'),
);
await build({
  entryPoints: [entry],
  outfile: join(work, 'bundle.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  nodePaths: [join(root, 'node_modules')],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
const lib = await import(pathToFileURL(join(work, 'bundle.mjs')).href);
rmSync(work, { recursive: true, force: true });

const files = [];
(function walk(d) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.md')) {
      const st = statSync(p);
      files.push({ path: relative(dir, p).split('\\').join('/'), absPath: p, size: st.size, mtimeMs: st.mtimeMs });
    }
  }
})(dir);
const bytes = files.reduce((n, f) => n + f.size, 0);

for (let r = 0; r < repeat; r++) {
  let sections = 0;
  let links = 0;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  for (const f of files) {
    const result = lib.loadNote(f, lib.DEFAULT_PARSE_OPTIONS);
    if (result.kind === 'note') {
      sections += result.note.sections.length;
      links += result.note.links.length;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(
    JSON.stringify({
      files: files.length,
      mb: +(bytes / 1e6).toFixed(1),
      seconds: +seconds.toFixed(2),
      cpuSeconds: +cpuSeconds.toFixed(2),
      mbPerSecond: +(bytes / 1e6 / seconds).toFixed(2),
      mbPerCpuSecond: +(bytes / 1e6 / cpuSeconds).toFixed(2),
      notesPerSecond: Math.round(files.length / seconds),
      sections,
      links,
    }),
  );
}

if (verify) {
  let differing = 0;
  for (const f of files) {
    const text = readFileSync(f.absPath, 'utf8');
    const a = JSON.stringify(lib.fastStructure(text));
    const b = JSON.stringify(lib.referenceStructure(text));
    if (a !== b) {
      differing++;
      if (differing <= 5) console.log('structure differs:', f.path);
    }
  }
  console.log(JSON.stringify({ verified: files.length, differing }));
}
