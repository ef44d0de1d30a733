// A seeded generator of realistic vaults: knowledge, daily and session notes in Japanese and English
// with frontmatter, nested headings, lists, tables, code blocks and every kind of link. The same seed
// always gives the same files, so a failing run can be replayed with TSM_TEST_SEED=<seed>.
import { posix } from 'node:path';

/** mulberry32: small, fast, good enough to spread kill points and pick words. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of this run: $TSM_TEST_SEED when set (to replay a failure), else a fresh one. Printed by callers. */
export function testSeed(): number {
  const given = process.env.TSM_TEST_SEED;
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isInteger(n)) throw new Error(`TSM_TEST_SEED must be an integer (got ${given})`);
    return n;
  }
  return Math.floor(Math.random() * 2 ** 31);
}

export class Picker {
  constructor(readonly random: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  shuffled<T>(list: readonly T[]): T[] {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  some<T>(list: readonly T[], n: number): T[] {
    const out = new Set<T>();
    while (out.size < Math.min(n, list.length)) out.add(this.pick(list));
    return [...out];
  }
}

const TOPICS_EN = ['LoRa', 'antenna', 'battery', 'firmware', 'GPS', 'enclosure', 'bootloader', 'sensor', 'radio', 'power budget'];
const TOPICS_JA = ['モジュール選定', 'アンテナ設計', '電池寿命', '待機電流', '筐体設計', '電波法', '実地テスト', '基板レイアウト', '省電力化', '受信感度'];
const WORDS_EN = [
  'sleep', 'current', 'measurement', 'duty', 'cycle', 'packet', 'range', 'spreading', 'factor', 'bandwidth', 'helical',
  'whip', 'ground', 'plane', 'regulator', 'quiescent', 'interrupt', 'watchdog', 'flash', 'OTA', 'checksum', 'latency',
  'temperature', 'waterproof', 'gasket', 'prototype', 'revision', 'datasheet', 'schematic', 'trace', 'impedance', 'matching',
  'dog', 'tracker', 'hunting', 'season', 'collar', 'mountain', 'forest', 'signal', 'noise', 'margin', 'calibration',
];
const PHRASES_JA = [
  '実測で 1.2mA もある', 'データシートの値とは違う', 'スリープに入っていない', '猟期までに間に合わせたい', '山の中では届かない',
  '低温で容量が落ちる', '920MHz 帯を使う', '送信間隔を 30 秒にした', 'ホイップアンテナの方が安定する', '防水パッキンを追加した',
  '次の試作で確認する', '見積もりを更新した', '受信側のノイズが大きい', '基板を小型化したい', '電池の持ちが問題',
  '消費電流を計測した', '通信距離は 3km 程度', 'ファームウェアを更新した', '技適の確認が必要', '結論はまだ出ていない',
];
const STATUSES = ['current', 'draft', 'archived', 'outdated', 'superseded'];
const FENCE = '```';

export interface GeneratedVault {
  /** vault-relative path → content */
  files: Record<string, string>;
  /** Paths of the notes, in generation order. */
  notes: string[];
}

function sentence(p: Picker, ja: boolean): string {
  if (ja) {
    const a = p.pick(PHRASES_JA);
    return p.chance(0.5) ? `${p.pick(TOPICS_JA)}について: ${a}。` : `${a}。${p.pick(TOPICS_EN)} の ${p.pick(WORDS_EN)} も見直す。`;
  }
  const words = Array.from({ length: p.int(6, 14) }, () => p.pick(WORDS_EN));
  words.splice(p.int(0, words.length), 0, p.pick(TOPICS_EN));
  const s = words.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

export function paragraph(p: Picker, links: () => string): string {
  const n = p.int(2, 5);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(sentence(p, p.chance(0.55)));
    if (p.chance(0.25)) parts.push(links());
    if (p.chance(0.1)) parts.push(`#${p.pick(['hw', 'fw', 'test', 'idea', '測定'])}`);
  }
  return parts.join(' ');
}

function block(p: Picker, links: () => string): string {
  const r = p.random();
  if (r < 0.55) return paragraph(p, links);
  if (r < 0.75) return Array.from({ length: p.int(2, 5) }, () => `- ${sentence(p, p.chance(0.5))}`).join('\n');
  if (r < 0.85) {
    const rows = Array.from({ length: p.int(2, 4) }, () => `| ${p.pick(TOPICS_EN)} | ${p.int(1, 999)} ${p.pick(['mA', 'µA', 'km', 'dBm'])} | ${p.pick(PHRASES_JA)} |`);
    return ['| item | value | note |', '| --- | --- | --- |', ...rows].join('\n');
  }
  if (r < 0.95) {
    // Headings inside code are text, never sections.
    return [`${FENCE}c`, '# not a heading', `int ${p.pick(WORDS_EN)} = ${p.int(0, 99)};`, '## neither', FENCE].join('\n');
  }
  return `> ${sentence(p, true)}`;
}

function date(p: Picker): string {
  return `2026-${String(p.int(1, 12)).padStart(2, '0')}-${String(p.int(1, 28)).padStart(2, '0')}`;
}

interface NoteSpec {
  path: string;
  title: string;
  type?: 'session';
}

/** One note: optional frontmatter, an optional lead paragraph, an H1 and 2–7 nested sections. */
function noteText(p: Picker, spec: NoteSpec, i: number, names: readonly string[], links: () => string): string {
  const fm: string[] = [];
  if (spec.type || p.chance(0.8)) {
    fm.push('---', `title: "${spec.title}"`);
    if (spec.type) fm.push(`type: ${spec.type}`);
    if (p.chance(0.6)) fm.push(`date: ${date(p)}`);
    if (p.chance(0.5)) fm.push(`status: ${p.pick(STATUSES)}`);
    fm.push(`tags: [${p.some(['hw', 'fw', 'lora', 'gps', 'power', '実験'], p.int(1, 3)).join(', ')}]`);
    if (p.chance(0.2)) fm.push(`aliases: ["${p.pick(TOPICS_JA)} ${i}"]`);
    if (p.chance(0.3)) fm.push(`related: ["[[${p.pick(names)}]]"]`);
    fm.push('---', '');
  }
  const body: string[] = [];
  if (p.chance(0.4)) body.push(paragraph(p, links), '');
  body.push(`# ${spec.title}`, '');
  const sections = p.int(2, 7);
  for (let s = 0; s < sections; s++) {
    const level = s === 0 ? 2 : p.pick([2, 2, 3, 3, 4]);
    const ja = p.chance(0.5);
    body.push(`${'#'.repeat(level)} ${ja ? p.pick(TOPICS_JA) : p.pick(TOPICS_EN)} ${ja ? 'の検討' : 'review'} ${s}`, '');
    for (let b = p.int(1, 4); b > 0; b--) body.push(block(p, links), '');
  }
  return [...fm, ...body].join('\n');
}

function linkMaker(p: Picker, names: readonly string[], paths: readonly string[], from: { path: string }): () => string {
  return () => {
    const j = p.int(0, names.length - 1);
    const r = p.random();
    if (r < 0.5) return `[[${names[j]}]]`;
    if (r < 0.65) return `[[${names[j]}|${p.pick(TOPICS_JA)}]]`;
    if (r < 0.75) return `[[${names[j]}#${p.pick(TOPICS_EN)}]]`;
    if (r < 0.85) return `![[${names[j]}]]`;
    if (r < 0.95) return `[${p.pick(TOPICS_EN)}](${posix.relative(posix.dirname(from.path), paths[j])})`;
    return `[[missing-note-${p.int(1, 20)}]]`;
  };
}

/** A vault of about `count` notes (2–5 KB each). */
export function generateVault(seed: number, count: number): GeneratedVault {
  const p = new Picker(rng(seed));
  const specs: NoteSpec[] = [];
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = p.random();
    const title = p.chance(0.5) ? `${p.pick(TOPICS_JA)}: ${p.pick(TOPICS_EN)} ${i}` : `${p.pick(TOPICS_EN)} notes ${i}`;
    if (r < 0.2) {
      const name = `${date(p)}-${i}`;
      specs.push({ path: `daily/${name}.md`, title });
      names.push(name);
    } else if (r < 0.27) {
      const name = `2026-05-${String(1 + (i % 28)).padStart(2, '0')}-fw-${i.toString(16).padStart(8, '0')}`;
      specs.push({ path: `sessions/${name}.md`, title, type: 'session' });
      names.push(name);
    } else {
      const folder = p.pick(['hardware', 'firmware', 'field', 'research/radio', 'research/power']);
      const name = `${p.pick(TOPICS_EN).replace(/ /g, '-').toLowerCase()}-${i}`;
      specs.push({ path: `${folder}/${name}.md`, title });
      names.push(name);
    }
  }
  // A few duplicate basenames so link resolution has ambiguous targets to get right.
  for (let i = 0; i < Math.min(6, count); i++) specs.push({ path: `archive/${names[(i * 3) % names.length]}.md`, title: `archived ${i}` });
  const paths = specs.map((s) => s.path);
  const files: Record<string, string> = {};
  const from = { path: '' };
  const links = linkMaker(p, names, paths, from);
  specs.forEach((spec, i) => {
    from.path = spec.path;
    files[spec.path] = noteText(p, spec, i, names, links);
  });
  return { files, notes: paths };
}

/**
 * The same vault some days later: `edits` notes changed (a section added, a heading renamed, aliases
 * changed), a few deleted, a few added (one reusing an existing basename, others linked from old notes).
 */
export function laterVault(seed: number, vault: GeneratedVault, edits: number): GeneratedVault {
  const p = new Picker(rng(seed ^ 0x5bd1e995));
  const files = { ...vault.files };
  const notes = [...vault.notes];
  const names = notes.map((n) => posix.basename(n, '.md'));
  const from = { path: '' };
  const links = linkMaker(p, names, notes, from);
  const order = p.shuffled(notes);
  const deleted = order.slice(0, 8);
  const edited = order.slice(8, 8 + edits);
  for (const path of deleted) delete files[path];
  const added: string[] = [];
  for (let i = 0; i < 8; i++) {
    const path = i === 0 ? `new/${names[5]}.md` : `new/idea-${i}.md`;
    from.path = path;
    files[path] = noteText(p, { path, title: `new idea ${i}` }, 10_000 + i, names, links);
    added.push(path);
  }
  edited.forEach((path, k) => {
    from.path = path;
    let text = files[path];
    if (p.chance(0.3)) {
      const alias = `aliases: ["${p.pick(TOPICS_JA)} 改 ${k}"]`;
      text = /^aliases: .*$/m.test(text) ? text.replace(/^aliases: .*$/m, p.chance(0.5) ? alias : 'aliases: []') : text.replace(/^title: (.*)$/m, `title: $1\n${alias}`);
    }
    if (p.chance(0.4)) text = text.replace(/^## (.*)$/m, `## $1 (改訂)`);
    const newLink = `[[${posix.basename(p.pick(added), '.md')}]]`;
    text += `\n\n## 追記 update ${k}\n\n${paragraph(p, links)} ${newLink}\n`;
    files[path] = text;
  });
  return { files, notes: Object.keys(files) };
}

/**
 * Queries used to compare an index with a clean build: keywords, Japanese, a long prompt, FTS5 syntax
 * (as text) mixed with the query language's operators (a phrase that is there, an exclusion, an OR whose
 * side holds no word), so that each still matches hundreds of notes.
 */
export const COMPARE_QUERIES = [
  'LoRa antenna',
  '待機電流',
  'battery sleep current measurement',
  'enclosure gasket waterproof 防水パッキン',
  'GPS の受信感度を上げたいのですが、山の中で届かない問題について過去に何を調べたか教えてください',
  '"LoRa" -minus field:value NEAR(a b) OR *',
];
