// Checks that src/text/redact.ts redacts exactly as it did at an older commit: both are bundled (esbuild) and
// run over the same texts through the four entry points (redactNoteSecrets, redactNoteHeadingPath,
// redactNoteSecretsKeepingLines, redactSecrets), and every output must be byte-identical. For a change that
// should make the redactor faster without changing what it does (its rules' triggers).
//
//   node scripts/redact-same.mjs [--old REV] [INDEX.db…]
//
// Texts: every section's text, heading path and title and every note's path and title in the tsm indexes
// given (an eval cache's /tmp/tsm-eval-cache/index/*.db, or a vault's .tsm/index.db), and every string
// literal of the redaction tests and test/helpers/secret-notes.ts, alone and, per file, all joined by line
// breaks (so that rules meet). Prints the count of texts compared and of differences; exits 1 on any.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const oldAt = args.indexOf('--old');
const oldRev = oldAt === -1 ? 'd23fc12' : args.splice(oldAt, 2)[1];
const dbs = args;

const tmp = mkdtempSync(join(tmpdir(), 'redact-same-'));
try {
  // The old redactor: its file and the modules it imports, as they were at oldRev (redacted.ts, since 4edb815).
  for (const f of ['src/text/redact.ts', 'src/core/types.ts', 'src/text/redacted.ts']) {
    let text;
    try {
      text = execFileSync('git', ['-C', root, 'show', `${oldRev}:${f}`], { stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      continue; // not there yet at oldRev
    }
    mkdirSync(join(tmp, 'old', f, '..'), { recursive: true });
    writeFileSync(join(tmp, 'old', f), text);
  }
  const bundle = (entry, out) => build({ entryPoints: [entry], outfile: out, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning' });
  await bundle(join(tmp, 'old/src/text/redact.ts'), join(tmp, 'old.mjs'));
  await bundle(join(root, 'src/text/redact.ts'), join(tmp, 'new.mjs'));
  const before = await import(join(tmp, 'old.mjs'));
  const after = await import(join(tmp, 'new.mjs'));
  const fns = ['redactNoteSecrets', 'redactNoteHeadingPath', 'redactNoteSecretsKeepingLines', 'redactSecrets'];

  let texts = 0;
  let differences = 0;
  const compare = (text, where) => {
    texts++;
    for (const fn of fns) {
      const a = before[fn](text);
      const b = after[fn](text);
      if (a === b) continue;
      differences++;
      if (differences <= 10) console.log(`DIFFERENT ${fn} (${where}):\n  text: ${JSON.stringify(text.slice(0, 300))}\n  old:  ${JSON.stringify(a.slice(0, 300))}\n  new:  ${JSON.stringify(b.slice(0, 300))}`);
    }
  };

  // The redaction tests' own inputs: every string literal (and template piece) of their files.
  const ts = require('typescript');
  const testFiles = [
    ...readdirSync(join(root, 'test/sessions')).filter((f) => f.startsWith('redact')).map((f) => `test/sessions/${f}`),
    ...readdirSync(join(root, 'test/text')).filter((f) => f.startsWith('redact')).map((f) => `test/text/${f}`),
    'test/helpers/secret-notes.ts',
    'test/hooks/redact-injected.e2e.test.ts',
    'test/mcp/redact-answers.e2e.test.ts',
  ];
  let literals = 0;
  for (const file of testFiles) {
    const src = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const found = [];
    const visit = (node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
      else if (ts.isTemplateExpression(node)) found.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
      ts.forEachChild(node, visit);
    };
    visit(src);
    for (const s of found) compare(s, file);
    compare(found.join('\n'), `${file}, all joined`);
    literals += found.length;
  }
  const fromTests = texts;

  const Database = require('better-sqlite3');
  for (const path of dbs) {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    const before = texts;
    for (const r of db.prepare('SELECT text, heading_path AS headingPath FROM sections').iterate()) {
      compare(r.text, path);
      compare(r.headingPath, path);
    }
    for (const r of db.prepare('SELECT path, title FROM notes').iterate()) {
      compare(r.path, path);
      compare(r.title, path);
    }
    db.close();
    console.log(`${path}: ${texts - before} texts`);
  }
  console.log(`old ${oldRev} vs working tree: ${texts} texts (${fromTests} from ${literals} literals of ${testFiles.length} test files), ${fns.length} functions each, ${differences} differences`);
  process.exitCode = differences === 0 ? 0 : 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
