// The semantic model end to end: `tsm index` (the built CLI) trains it on a generated vault of a few
// hundred sections, a paraphrase query finds its note only through co-occurrence, incremental edits get
// vectors at once, `tsm status` reports it, and the watcher's background trainer retrains and stores.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReader, openWriter } from '../../src/index/db.js';
import { BackgroundTrainer } from '../../src/index/semantic/background.js';
import { SemanticStore } from '../../src/index/semantic/store.js';
import { cosineWithStored, dequantize } from '../../src/index/semantic/quantize.js';
import { search } from '../../src/search/search.js';
import { semanticOrder, semanticQuery } from '../../src/search/semantic.js';
import { cleanEnv, makeVault, ROOT, tsm } from '../helpers/cli.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const TOPICS = {
  devices: ['phone', 'laptop', 'tablet', 'gadget', 'charger', 'screen', 'battery', 'bluetooth'],
  music: ['melody', 'chord', 'rhythm', 'guitar', 'tempo', 'song', 'piano', 'lyrics'],
  baking: ['flour', 'oven', 'dough', 'sugar', 'bake', 'recipe', 'butter', 'yeast'],
  garden: ['soil', 'seeds', 'compost', 'tomato', 'weeds', 'shovel', 'hedge', 'mulch'],
};

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * 40 notes of 10 sections, each about one topic, plus `zz-mixed.md`: devices and music words, "melody"
 * once, never "gadget". Lexically, "gadget melody" ranks it below every music section (they say melody
 * more often); only the vectors know that gadget goes with phones and laptops.
 */
function generatedVault(): Record<string, string> {
  const next = rng(42);
  const pick = (words: string[], n: number) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');
  const files: Record<string, string> = {};
  const names = Object.keys(TOPICS) as (keyof typeof TOPICS)[];
  for (let n = 0; n < 40; n++) {
    const topic = TOPICS[names[n % names.length]];
    const parts = Array.from({ length: 10 }, (_, k) => `## Part ${k + 1}\n\n${pick(topic, 30)}\n`);
    files[`notes/n${String(n).padStart(2, '0')}.md`] = `# Note ${n}\n\n${parts.join('\n')}`;
  }
  const gadgetless = TOPICS.devices.filter((w) => w !== 'gadget');
  const musicless = TOPICS.music.filter((w) => w !== 'melody');
  files['zz-mixed.md'] = `# Misc\n\n## Evening\n\n${pick(gadgetless, 12)} melody ${pick(musicless, 12)}\n`;
  return { ...files, ...SEMANTIC_ON };
}

/** The vault setting that turns the semantic model on (it is off by default). */
const SEMANTIC_ON = { '.tsm/config.json': '{ "semantic": true }' };

function indexedVault(): { dir: string; db: string } {
  const v = makeVault(generatedVault());
  cleanups.push(v.cleanup);
  const db = join(v.dir, '.tsm/index.db');
  const r = tsm(['index', '--vault', v.dir]);
  expect(r.code).toBe(0);
  return { dir: v.dir, db };
}

function withReader<T>(path: string, fn: (db: ReturnType<typeof openReader>) => T): T {
  const db = openReader(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const counts = (path: string) =>
  withReader(path, (db) => ({
    sections: (db.prepare('SELECT count(*) AS n FROM sections').get() as { n: number }).n,
    vectors: (db.prepare('SELECT count(*) AS n FROM semantic_sections').get() as { n: number }).n,
    words: (db.prepare('SELECT count(*) AS n FROM semantic_words').get() as { n: number }).n,
    state: new SemanticStore(db).state(),
  }));

/** Everything a training stored, keyed by content (not row ids): word vectors and section vectors. */
const trainedModel = (path: string) =>
  withReader(path, (db) => ({
    words: db.prepare('SELECT word, idf, hex(vec) AS vec FROM semantic_words ORDER BY word').all(),
    sections: db
      .prepare('SELECT s.heading_path || char(10) || s.text AS text, hex(v.vec) AS vec FROM semantic_sections v JOIN sections s ON s.id = v.id ORDER BY text, vec')
      .all(),
  }));

/** Each note's vector (semantic_notes), by path. */
const noteVectorsByPath = (path: string) =>
  withReader(path, (db) => db.prepare('SELECT n.path, hex(v.vec) AS vec FROM semantic_notes v JOIN notes n ON n.id = v.id ORDER BY n.path').all());

describe('semantic model', () => {
  it('trains the same model on one thread and on two (the helper thread of a big vault)', () => {
    const trainedWith = (threads: string) => {
      const v = makeVault(generatedVault());
      cleanups.push(v.cleanup);
      expect(tsm(['index', '--vault', v.dir], { env: { TSM_TRAIN_THREADS: threads } }).code).toBe(0);
      return trainedModel(join(v.dir, '.tsm/index.db'));
    };
    const one = trainedWith('1');
    const two = trainedWith('2');
    expect(one.words.length).toBeGreaterThan(10);
    expect(one.sections.length).toBeGreaterThan(10);
    expect(two).toEqual(one);
  });

  it('trains the same model when the helper thread fails every task it is given (the calling thread does them)', () => {
    // A copy of the built CLI whose helper worker (dist/svd-worker.js) answers every kernel task "failed"
    // (flag 2) and every batch of texts `failed`: the training must fall back to this thread and learn the
    // same vectors, byte for byte, as on one thread.
    const pkg = mkdtempSync(join(tmpdir(), 'tsm-broken-helper-'));
    cleanups.push(() => rmSync(pkg, { recursive: true, force: true }));
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    writeFileSync(
      join(pkg, 'dist/svd-worker.js'),
      `import { parentPort } from 'node:worker_threads';
import { appendFileSync } from 'node:fs';
let out = null;
parentPort.on('message', (m) => {
  if (m.setup) { out = m.setup; return; }
  if (m.texts && out) {
    out.port.postMessage({ batch: m.batch, newTypes: [], lens: new Int32Array(0), words: new Int32Array(0), failed: true });
    Atomics.add(out.answered, 0, 1);
    Atomics.notify(out.answered, 0);
    return;
  }
  if (m.task && m.flag) {
    appendFileSync(${JSON.stringify(join(pkg, 'failed-tasks'))}, 'x');
    Atomics.store(m.flag, 0, 2);
    Atomics.notify(m.flag, 0);
  }
});
`,
    );
    const v = makeVault(generatedVault());
    cleanups.push(v.cleanup);
    const r = spawnSync(process.execPath, [join(pkg, 'bin/tsm'), 'index', '--vault', v.dir], {
      env: cleanEnv({ TSM_TRAIN_THREADS: '2' }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const broken = trainedModel(join(v.dir, '.tsm/index.db'));
    const w = makeVault(generatedVault());
    cleanups.push(w.cleanup);
    expect(tsm(['index', '--vault', w.dir], { env: { TSM_TRAIN_THREADS: '1' } }).code).toBe(0);
    const one = trainedModel(join(w.dir, '.tsm/index.db'));
    expect(broken.sections.length).toBeGreaterThan(10);
    expect(broken).toEqual(one);
    // The broken helper was asked (and failed) the kernel tasks it was given.
    expect(readFileSync(join(pkg, 'failed-tasks'), 'utf8').length).toBeGreaterThan(0);
  });

  it('is trained by `tsm index`, and a paraphrase finds its note only through co-occurrence', () => {
    const { dir, db } = indexedVault();
    const c = counts(db);
    expect(c.sections).toBeGreaterThan(400); // 40 × 10 parts, each note's title section, the mixed note's
    expect(c.vectors).toBe(c.sections);
    expect(c.words).toBeGreaterThanOrEqual(32);
    expect(c.state).toMatchObject({ kind: 'trained', sections: c.sections, embeddedSince: 0 });

    withReader(db, (reader) => {
      const ids = (reader.prepare('SELECT id FROM sections ORDER BY id').pluck().all() as number[]);
      const mixed = reader.prepare("SELECT s.id FROM sections s JOIN notes n ON n.id = s.note_id WHERE n.path = 'zz-mixed.md' AND s.heading = 'Evening'").pluck().get();
      expect(semanticOrder(semanticQuery(reader, 'gadget melody')!, ids)[0].id).toBe(mixed);
      const now = new Date('2026-01-01');
      const lexical = search(reader, { query: 'gadget melody', limit: 5, now, tuning: { semanticWeight: 0, semanticNoteWeight: 0 } }).hits.map((h) => h.path);
      expect(lexical).not.toContain('zz-mixed.md');
      // Weighted so that the cosine order decides: ranks 1 and 2 of one RRF list differ by w / (61 · 62), and
      // at w = 30 (0.008) a music section second by cosine and first lexically (2 / 61) came out on top once
      // the eigen-decomposition became exact (two power iterations).
      const fused = search(reader, { query: 'gadget melody', limit: 5, now, tuning: { semanticWeight: 1000, semanticDepth: 500, secondSection: 0 } }).hits.map((h) => h.path);
      expect(fused[0]).toBe('zz-mixed.md');
    });

    const status = tsm(['status', '--vault', dir]);
    const held = withReader(db, (r) => r.prepare('SELECT count(*) FROM semantic_sections WHERE length(vec) > 0').pluck().get() as number);
    const noWord = c.sections - held;
    expect(status.stdout).toMatch(
      new RegExp(
        `^semantic {2}\\d+ words × \\d+ dims, trained on ${c.sections} sections \\(\\d{4}-\\d\\d-\\d\\d\\); ${held} of ${c.sections} sections have a vector now \\(0 embedded since${noWord ? `, ${noWord} with no word it knows` : ''}\\)$`,
        'm',
      ),
    );
    // The day of training is the reader's, as a daily note's: a zone where it is not the UTC day (a Tokyo
    // morning read the UTC evening before). UTC+14 is a day ahead from 10:00 UTC on, UTC−11 behind until 11:00.
    const trained = new Date((c.state as { trainedAt: string }).trainedAt);
    const zone = trained.getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(trained);
    expect(day).not.toBe(trained.toISOString().slice(0, 10));
    expect(tsm(['status', '--vault', dir], { env: { TZ: zone } }).stdout).toContain(`sections (${day}); `);
  });

  it('gives new and changed sections vectors at once, says when a retrain is due, and --full retrains', () => {
    const { dir, db } = indexedVault();
    const base = counts(db).sections;
    appendFileSync(join(dir, 'zz-mixed.md'), '\n## Later\n\nguitar charger battery\n');
    writeFileSync(join(dir, 'new.md'), '# New\n\n## One\n\nflour oven\n\n## Two\n\nzzunknownword\n');
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    let c = counts(db);
    expect(c.sections).toBe(base + 4); // Later; New's title, One and Two
    expect(c.vectors).toBe(base + 4); // the one without a known word has an empty vector
    // zz-mixed.md's new section and new.md's three: its two unchanged ones kept theirs (vector-carry.ts NoteVectors).
    expect(c.state).toMatchObject({ kind: 'trained', sections: base, embeddedSince: 4 });
    withReader(db, (reader) => {
      const empty = reader
        .prepare("SELECT length(v.vec) FROM semantic_sections v JOIN sections s ON s.id = v.id WHERE s.heading = 'Two'")
        .pluck()
        .get();
      expect(empty).toBe(0);
    });
    expect(json(tsm(['status', '--vault', dir, '--json'])).semantic).toMatchObject({ kind: 'trained', embeddedSince: 4, retrainDue: false });
    // Status says both counts: the model's (trained on `base`) and the sections with a vector now. "from 442
    // sections" alone read as the vectors held, on a vault of 446 sections of which 'Two' has none it can use.
    const held = withReader(db, (r) => r.prepare('SELECT count(*) FROM semantic_sections WHERE length(vec) > 0').pluck().get() as number);
    expect(held).toBeLessThan(base + 4);
    expect(json(tsm(['status', '--vault', dir, '--json'])).semantic).toMatchObject({ sections: base, sectionsTrainedOn: base, sectionsWithVector: held });
    expect(tsm(['status', '--vault', dir]).stdout).toMatch(
      new RegExp(`, trained on ${base} sections \\([^)]+\\); ${held} of ${base + 4} sections have a vector now \\(4 embedded since, ${base + 4 - held} with no word it knows\\)$`, 'm'),
    );

    // 20 % of the sections changed (every part of 9 notes, 90 + 4 of 442): due, and a plain `tsm index` retrains.
    for (let n = 0; n < 9; n++) {
      const file = join(dir, `notes/n${String(n).padStart(2, '0')}.md`);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^## Part (\d+)$/gm, '## Part $1\n\nmore soil'));
    }
    const sync = tsm(['index', '--vault', dir]);
    expect(sync.code).toBe(0);
    c = counts(db);
    expect(c.state).toMatchObject({ kind: 'trained', sections: base + 4, embeddedSince: 0 });
    expect(c.vectors).toBe(base + 4);

    writeFileSync(join(dir, 'new.md'), '# New\n\nsugar butter\n');
    tsm(['index', '--vault', dir]);
    expect(counts(db).state?.embeddedSince).toBe(1); // new.md is one section now
    expect(tsm(['index', '--full', '--vault', dir]).code).toBe(0);
    c = counts(db);
    expect(c.state).toMatchObject({ kind: 'trained', embeddedSince: 0, sections: c.sections });
    expect(c.vectors).toBe(c.sections);
  });

  it('a note read again as it was (an older tsm read it) keeps its sections’ vectors: nothing embedded, no retrain', () => {
    // After an upgrade every note an older reading wrote is read again, once (parse-version.e2e.test.ts). On
    // the handbook (58,459 sections) not one section's text changed, yet the rewrite dropped every section's
    // vector: all were embedded again and counted as changed, and the model was retrained (9 s of a 32 s sync).
    // Half of them here: an index most of whose notes an older tsm read is rebuilt (migration-rebuild.e2e.test.ts).
    const { dir, db } = indexedVault();
    const before = { model: trainedModel(db), notes: noteVectorsByPath(db), state: counts(db).state };
    const { db: w } = openWriter(db);
    w.exec('DELETE FROM note_reading WHERE note_id IN (SELECT id FROM notes ORDER BY id LIMIT 20)'); // as a tsm before the record left them
    w.close();
    const r = tsm(['index', '--vault', dir]);
    expect(r.stderr).toMatch(/the index holds 20 notes as an older tsm read them: reading them again, once/);
    expect(r.stdout).toMatch(/^0 added, 20 updated, 0 removed, 21 unchanged/);
    expect(counts(db).state).toEqual(before.state);
    expect(trainedModel(db)).toEqual(before.model);
    expect(noteVectorsByPath(db)).toEqual(before.notes);
  });

  it('an edit counts toward the retrain only the sections it changed', () => {
    const { dir, db } = indexedVault();
    const mixed = withReader(db, (r) => r.prepare("SELECT hex(v.vec) FROM semantic_sections v JOIN sections s ON s.id = v.id WHERE s.heading = 'Part 3' AND s.note_id = (SELECT id FROM notes WHERE path = 'notes/n05.md')").pluck().get());
    appendFileSync(join(dir, 'notes/n05.md'), '\nmore soil\n'); // its last section (Part 10) only
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    expect(counts(db).state).toMatchObject({ embeddedSince: 1 });
    const after = withReader(db, (r) => r.prepare("SELECT hex(v.vec) FROM semantic_sections v JOIN sections s ON s.id = v.id WHERE s.heading = 'Part 3' AND s.note_id = (SELECT id FROM notes WHERE path = 'notes/n05.md')").pluck().get());
    expect(after).toBe(mixed);
  });

  it('new notes count toward the retrain once per section: 11 % of the vault added is not due, 21 % is', () => {
    // A new section is embedded (embeddedSince) and raises the count of sections: the retrain rule added
    // both, so 50 sections added to 442 counted 100, over the 20 % share (88.4), and retrained at once.
    const { dir, db } = indexedVault();
    const base = counts(db).sections;
    const addNotes = (from: number, to: number) => {
      for (let n = from; n < to; n++) writeFileSync(join(dir, `added${n}.md`), `# Added ${n}\n\n${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => `## Part ${k}\n\nflour oven soil seeds\n`).join('\n')}`);
    };
    addNotes(0, 5); // 50 sections: each note's title section and its 9 parts
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    expect(counts(db).state).toMatchObject({ kind: 'trained', sections: base, embeddedSince: 50 });
    expect(json(tsm(['status', '--vault', dir, '--json'])).semantic).toMatchObject({ retrainDue: false });
    addNotes(5, 9); // 40 more: 90 of 442 sections
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    expect(counts(db).state).toMatchObject({ kind: 'trained', sections: base + 90, embeddedSince: 0 });
  });

  it('a retrain that status calls due is done by the next `tsm index`, even one with no note to write', () => {
    // Status says "retrain due (`tsm index` … does it)" when a watcher stopped before its background training
    // ended, or when notes were added while the model was turned off; `tsm index` then wrote nothing and, since
    // a sync that wrote nothing skipped the model, left it due until some note changed.
    const { dir, db } = indexedVault();
    const base = counts(db).sections;
    writeFileSync(join(dir, '.tsm', 'config.json'), JSON.stringify({ semantic: false }));
    for (let n = 0; n < 10; n++) writeFileSync(join(dir, `later${n}.md`), `# Later ${n}\n\n${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => `## Part ${k}\n\nflour oven soil seeds\n`).join('\n')}`);
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    writeFileSync(join(dir, '.tsm', 'config.json'), SEMANTIC_ON['.tsm/config.json']);
    expect(counts(db).sections).toBe(base + 100);
    expect(json(tsm(['status', '--vault', dir, '--json'])).semantic).toMatchObject({ kind: 'trained', sections: base, retrainDue: true });
    expect(tsm(['index', '--vault', dir]).stdout).toMatch(/^0 added, 0 updated, 0 removed/);
    expect(counts(db).state).toMatchObject({ kind: 'trained', sections: base + 100, embeddedSince: 0 });
    expect(tsm(['status', '--vault', dir]).stdout).not.toMatch(/retrain due/);
  });

  it('sections added while the model was off get their vectors from the next `tsm index`, even one with no note to write', () => {
    // Too few to make a retrain due: a sync that wrote nothing skipped the model, and status said
    // "not embedded yet" until some note changed.
    const { dir, db } = indexedVault();
    const base = counts(db).sections;
    writeFileSync(join(dir, '.tsm', 'config.json'), JSON.stringify({ semantic: false }));
    writeFileSync(join(dir, 'later.md'), '# Later\n\n## Part 1\n\nflour oven soil seeds\n\n## Part 2\n\nflour oven\n');
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    writeFileSync(join(dir, '.tsm', 'config.json'), SEMANTIC_ON['.tsm/config.json']);
    expect(counts(db)).toMatchObject({ sections: base + 3, vectors: base });
    expect(tsm(['status', '--vault', dir]).stdout).toContain('3 not embedded yet: `tsm index` embeds them');
    expect(tsm(['index', '--vault', dir]).stdout).toMatch(/^0 added, 0 updated, 0 removed/);
    expect(counts(db)).toMatchObject({ sections: base + 3, vectors: base + 3, state: { kind: 'trained', sections: base, embeddedSince: 3 } });
    expect(tsm(['status', '--vault', dir]).stdout).not.toMatch(/not embedded yet/);
  });

  it('the note list ranks a note by its whole topic, and adds no note the text did not find', () => {
    const { db } = indexedVault();
    withReader(db, (reader) => {
      const now = new Date('2026-01-01');
      const paths = (query: string, tuning: object) => search(reader, { query, limit: 5, now, tuning: { semanticWeight: 0, secondSection: 0, ...tuning } }).hits.map((h) => h.path);
      // zz-mixed.md says melody once, among device words: lexically below every music note.
      expect(paths('gadget melody', { semanticNoteWeight: 0 })).not.toContain('zz-mixed.md');
      // Its note vector is devices and music, the query's two topics: weighted so that the note cosine decides.
      expect(paths('gadget melody', { semanticNoteWeight: 1000, semanticNoteDepth: 500 })[0]).toBe('zz-mixed.md');
      // `gadget` alone matches no word of it: the note list reorders, it never adds.
      expect(paths('gadget', { semanticNoteWeight: 1000, semanticNoteDepth: 500 })).not.toContain('zz-mixed.md');
    });
  });

  it('keeps one vector per note in step with its sections: a training, an edit, a removal, --full, and the migration from schema 12', () => {
    const { dir, db } = indexedVault();
    /** Note vectors by note path, and the notes that have sections with vectors. */
    const noteVecs = () =>
      withReader(db, (r) => ({
        byPath: new Map(
          (r.prepare('SELECT n.path AS path, hex(v.vec) AS vec FROM semantic_notes v JOIN notes n ON n.id = v.id').all() as { path: string; vec: string }[]).map((x) => [x.path, x.vec]),
        ),
        rows: r.prepare('SELECT count(*) FROM semantic_notes').pluck().get() as number,
        withVectors: r.prepare("SELECT count(DISTINCT s.note_id) FROM sections s JOIN semantic_sections v ON v.id = s.id WHERE length(v.vec) > 0").pluck().get() as number,
        oneSection: r.prepare("SELECT hex(v.vec) FROM semantic_sections v JOIN sections s ON s.id = v.id JOIN notes n ON n.id = s.note_id WHERE n.path = 'zz-mixed.md' AND s.heading = 'Evening'").pluck().get() as string,
      }));
    let v = noteVecs();
    expect(v.rows).toBe(41);
    expect(v.withVectors).toBe(41);
    // zz-mixed.md has one section with text: its note vector is that section's (up to int8 rounding).
    const hex = (h: string | undefined) => Buffer.from(h ?? '', 'hex');
    expect(cosineWithStored(dequantize(hex(v.oneSection)), hex(v.byPath.get('zz-mixed.md')))).toBeGreaterThan(0.999);
    const before = v.byPath;

    appendFileSync(join(dir, 'zz-mixed.md'), '\n## Later\n\nflour oven dough sugar bake recipe butter yeast flour oven dough sugar\n');
    rmSync(join(dir, 'notes/n00.md'));
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    v = noteVecs();
    expect(v.rows).toBe(40);
    expect(v.byPath.has('notes/n00.md')).toBe(false);
    expect(v.byPath.get('zz-mixed.md')).not.toBe(before.get('zz-mixed.md'));
    expect(v.byPath.get('notes/n01.md')).toBe(before.get('notes/n01.md'));

    // An index of schema 12 (no note vectors) is brought to 13 in place: the very rows a build writes.
    const built = noteVecs().byPath;
    const trainedAt = counts(db).state?.trainedAt;
    const { db: w } = openWriter(db);
    w.exec("DROP TABLE semantic_notes; UPDATE meta SET value = '12' WHERE key = 'schema_version'");
    w.close();
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    expect(noteVecs().byPath).toEqual(built);
    expect(counts(db).state?.trainedAt).toBe(trainedAt); // migrated, not rebuilt (a rebuild trains again)

    expect(tsm(['index', '--full', '--vault', dir]).code).toBe(0);
    v = noteVecs();
    expect(v.rows).toBe(40);
    expect(v.withVectors).toBe(40);
  });

  it('is off when the vault turns it off: nothing trained, and status says how to turn it on', () => {
    const v = makeVault(generatedVault());
    cleanups.push(v.cleanup);
    writeFileSync(join(v.dir, '.tsm', 'config.json'), JSON.stringify({ semantic: false }));
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const c = counts(join(v.dir, '.tsm/index.db'));
    expect(c.state).toBeNull();
    expect(c.vectors + c.words).toBe(0);
    expect(tsm(['status', '--vault', v.dir]).stdout).toMatch(/^semantic {2}off \("semantic": true in \.tsm\/config\.json turns it on; see docs\/search\.md\)$/m);
    // Turned on later with no note changed (or a model of an older version left behind): the next sync trains.
    writeFileSync(join(v.dir, '.tsm', 'config.json'), SEMANTIC_ON['.tsm/config.json']);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    expect(counts(join(v.dir, '.tsm/index.db')).state).toMatchObject({ kind: 'trained' });
    expect(counts(join(v.dir, '.tsm/index.db')).vectors).toBeGreaterThan(0);
  });

  it('skips a vault too small to learn from, and says so', () => {
    const v = makeVault({ 'a.md': '# A\n\nphone laptop', 'b.md': '# B\n\nmelody chord', ...SEMANTIC_ON });
    cleanups.push(v.cleanup);
    tsm(['index', '--vault', v.dir]);
    const c = counts(join(v.dir, '.tsm/index.db'));
    expect(c.state).toMatchObject({ kind: 'too-small', sections: 2 });
    expect(c.vectors + c.words).toBe(0);
    expect(tsm(['status', '--vault', v.dir]).stdout).toMatch(/^semantic {2}off: 2 sections are too few to learn from \(300 needed\)$/m);
    // Search works as before.
    expect(json(tsm(['search', 'phone', '--vault', v.dir, '-f', 'json'])).map((h: { path: string }) => h.path)).toEqual(['a.md']);
  });

  it('a growing vault still too small: status counts the sections it has now, not those of the first sync', () => {
    // The model's state keeps the count of the sync that found the vault too small; status printed that
    // count ("off: 2 sections …") while the vault grew to 5 sections, 62, 296 (seen in a simulated first month).
    const v = makeVault({ 'a.md': '# A\n\nphone laptop', 'b.md': '# B\n\nmelody chord', ...SEMANTIC_ON });
    cleanups.push(v.cleanup);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    writeFileSync(join(v.dir, 'c.md'), '# C\n\n## One\n\nflour oven\n\n## Two\n\nsoil seeds\n');
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    expect(counts(join(v.dir, '.tsm/index.db')).sections).toBe(5);
    expect(tsm(['status', '--vault', v.dir]).stdout).toMatch(/^semantic {2}off: 5 sections are too few to learn from \(300 needed\)$/m);
  });

  it('an index with no model state yet (a watcher started on an empty vault) says why, as a synced one does', () => {
    const v = makeVault({ 'a.md': '# A\n\nphone laptop', '.tsm/config.json': '{ "semantic": false }' });
    cleanups.push(v.cleanup);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    writeFileSync(join(v.dir, '.tsm/config.json'), SEMANTIC_ON['.tsm/config.json']);
    expect(counts(join(v.dir, '.tsm/index.db')).state).toBeNull();
    expect(tsm(['status', '--vault', v.dir]).stdout).toMatch(/^semantic {2}off: 1 section is too few to learn from \(300 needed\)$/m);
  });

  it('a vault of enough sections but no words it learns (Hangul) says so, and a sync does not train again until it has grown', () => {
    const next = rng(7);
    const syllable = () => String.fromCharCode(0xac00 + Math.floor(next() * 400));
    const para = () => Array.from({ length: 40 }, () => syllable() + syllable() + syllable()).join(' ');
    const files: Record<string, string> = { ...SEMANTIC_ON };
    for (let n = 0; n < 80; n++) files[`n${n}.md`] = `# 노트 ${n}\n\n${[1, 2, 3, 4].map((k) => `## 부분 ${k}\n\n${para()}\n`).join('\n')}`;
    const v = makeVault(files);
    cleanups.push(v.cleanup);
    const db = join(v.dir, '.tsm/index.db');
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const first = counts(db).state;
    expect(first).toMatchObject({ kind: 'too-small' });
    expect(first?.sections).toBeGreaterThanOrEqual(300);
    expect(tsm(['status', '--vault', v.dir]).stdout).toMatch(/^semantic {2}off: \d+ sections, but too few words it learns from .*\)$/m);
    // An edit syncs the note and leaves the state as it was (a training would write a new trainedAt).
    appendFileSync(join(v.dir, 'n3.md'), `\n${para()}\n`);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    expect(counts(db).state).toEqual(first);
    // Fewer than a fifth more sections: not tried again, and status counts the sections there are now, as
    // every other semantic line does (it said the count of the sync that last tried).
    for (let n = 80; n < 85; n++) writeFileSync(join(v.dir, `n${n}.md`), `# 노트 ${n}\n\n${[1, 2, 3, 4].map((k) => `## 부분 ${k}\n\n${para()}\n`).join('\n')}`);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    expect(counts(db).state).toEqual(first);
    const status = tsm(['status', '--vault', v.dir]).stdout;
    const now = Number(/^sections +(\d+)/m.exec(status)?.[1]);
    expect(now).toBeGreaterThan(first?.sections ?? 0);
    expect(status).toMatch(new RegExp(`^semantic {2}off: ${now} sections, but too few words it learns from`, 'm'));
    // A fifth more sections: tried again (and still no model).
    for (let n = 85; n < 100; n++) writeFileSync(join(v.dir, `n${n}.md`), `# 노트 ${n}\n\n${[1, 2, 3, 4].map((k) => `## 부분 ${k}\n\n${para()}\n`).join('\n')}`);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const again = counts(db).state;
    expect(again).toMatchObject({ kind: 'too-small' });
    expect(again?.sections).toBeGreaterThan(first?.sections ?? 0);
  });

  it('the background trainer retrains from its own snapshot and re-embeds what changed meanwhile', async () => {
    const { db: path } = indexedVault();
    const { db } = openWriter(path);
    try {
      const store = new SemanticStore(db);
      const state = store.state();
      if (!state) throw new Error('no model');
      store.setState({ ...state, embeddedSince: 100 }); // as if 100 sections had changed
      let ready!: () => void;
      const readyP = new Promise<void>((r) => (ready = r));
      const trainer = new BackgroundTrainer(path, ready);
      trainer.check(db);
      expect(trainer.busy).toBe(true);
      await readyP;
      // A section written after the snapshot: given a vector by a sync (seq > snapshot's).
      db.prepare('UPDATE semantic_sections SET seq = 5, vec = ? WHERE id = (SELECT min(id) FROM sections)').run(Buffer.alloc(0));
      trainer.check(db); // stores
      expect(store.state()).toMatchObject({ kind: 'trained', embeddedSince: 0, seq: 0 });
      const first = db.prepare('SELECT seq, length(vec) AS n FROM semantic_sections WHERE id = (SELECT min(id) FROM sections)').get();
      expect(first).toMatchObject({ seq: 0 });
      expect((first as { n: number }).n).toBeGreaterThan(0); // embedded again with the new words
      await trainer.close();
    } finally {
      db.close();
    }
  });
});

const json = (r: { stdout: string }) => JSON.parse(r.stdout);
