#!/usr/bin/env node
// Makes the dated twins of four eval corpora: the same notes, each with `created:` in its frontmatter, the day
// git first added it to its public repository. Most Obsidian vaults date their notes so (a template's
// `created: {{date}}`), and our corpora had almost none dated (0 of 6,571 Hub notes, 30 of 4,559 handbook
// notes): recency was measured on vaults where it had nothing to act on (eval/qrels/README.md, "Dated twins").
//
//   node eval/make-dated-corpora.mjs CORPORA_DIR OUT_DIR til=CLONE help=CLONE hub=CLONE tldr=CLONE
//
// CORPORA_DIR holds the undated tarballs (til-en, tldr-ja and obsidian-help-en from eval/make-dev-corpora.sh
// and eval/make-obsidian-help.sh; obsidian-hub from ../shared/corpora); each CLONE is a full clone of the
// corpus's repository (https://github.com/jbranchaud/til, obsidianmd/obsidian-help, obsidian-community/obsidian-hub,
// tldr-pages/tldr). A clone given no name is skipped. A note git never saw added under its path (renamed since),
// or whose frontmatter already has `date`, `updated` or `created`, or does not close, is left as it is, and
// dated by its mtime: every file's mtime is set to the pinned commit's time, the vault as of that commit. (Left
// as the tarball had it, the day the corpus was made, those notes were "today" for the sets whose `now` is that
// day, and a prompt saying "today's daily note" ranked them first.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

const CORPORA = [
  { key: 'til', corpus: 'til-en', prefix: '', commit: '453e9edbdf2be4165b65cbcce7342ac7bb9c4859' },
  { key: 'help', corpus: 'obsidian-help-en', prefix: 'en', commit: 'fa179e91e86eaff5859226cc045c81000d64e3cd' },
  { key: 'hub', corpus: 'obsidian-hub', prefix: '', commit: 'dae4bcf' },
  { key: 'tldr', corpus: 'tldr-ja', prefix: 'pages.ja', commit: '08e345f42639f67d99282813247ac670dc6e87cb' },
];

const [corporaDir, outDir, ...pairs] = process.argv.slice(2);
if (!corporaDir || !outDir) {
  console.error('usage: node eval/make-dated-corpora.mjs CORPORA_DIR OUT_DIR til=CLONE help=CLONE hub=CLONE tldr=CLONE');
  process.exit(2);
}
const clones = new Map(pairs.map((p) => p.split(/=(.*)/s).slice(0, 2)));

const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.status}`);
  return r.stdout;
};

/** Path (below the prefix) → the day of the oldest commit that added it, up to `commit`. */
function addedDays(clone, prefix, commit) {
  // core.quotePath off: git quotes a path with a byte over 0x7f (`"\360\237\227\202… Courses.md"`), which no
  // file's path matched; the Hub's 54 notes with such names (`🗂️ Courses.md`) were left undated.
  const log = run('git', ['-C', clone, '-c', 'core.quotePath=false', 'log', '--diff-filter=A', '--format=@%as', '--name-only', commit, '--', prefix || '.']);
  const days = new Map();
  let day = '';
  for (const line of log.split('\n')) {
    if (line.startsWith('@')) day = line.slice(1);
    else if (line) days.set(prefix && line.startsWith(`${prefix}/`) ? line.slice(prefix.length + 1) : line, day); // newest first: the oldest wins
  }
  return days;
}

function* markdownFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* markdownFiles(p);
    else if (name.endsWith('.md')) yield p;
  }
}

/** The note with `created: day` first in its frontmatter, or null when it keeps its own date. */
function dated(text, day) {
  if (!text.startsWith('---\n')) return `---\ncreated: ${day}\n---\n${text}`;
  const end = text.indexOf('\n---', 3);
  if (end === -1 || /^(date|updated|created):/m.test(text.slice(4, end))) return null;
  return `---\ncreated: ${day}\n${text.slice(4)}`;
}

for (const c of CORPORA) {
  const clone = clones.get(c.key);
  if (!clone) {
    console.error(`make-dated-corpora: no ${c.key}=CLONE given: ${c.corpus}-dated skipped`);
    continue;
  }
  const tarball = join(corporaDir, `${c.corpus}.tar.gz`);
  if (!existsSync(tarball)) throw new Error(`${tarball} not found`);
  run('git', ['-C', clone, 'cat-file', '-e', `${c.commit}^{commit}`]);
  const days = addedDays(clone, c.prefix, c.commit);
  const snapshot = new Date(Number(run('git', ['-C', clone, 'show', '-s', '--format=%ct', c.commit]).trim()) * 1000);
  const work = mkdtempSync(join(tmpdir(), 'dated-'));
  try {
    run('tar', ['-xzf', tarball, '-C', work]);
    const root = join(work, c.corpus);
    let n = 0;
    let kept = 0;
    for (const file of markdownFiles(root)) {
      const day = days.get(relative(root, file).split(sep).join('/'));
      const text = day ? dated(readFileSync(file, 'utf8'), day) : null;
      if (text === null) kept++;
      else {
        writeFileSync(file, text);
        n++;
      }
      utimesSync(file, snapshot, snapshot);
    }
    run('mv', [root, join(work, `${c.corpus}-dated`)]);
    run('tar', ['-czf', join(outDir, `${c.corpus}-dated.tar.gz`), '-C', work, `${c.corpus}-dated`]);
    console.log(`${join(outDir, `${c.corpus}-dated.tar.gz`)}: ${n} notes dated, ${kept} left as they were`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
