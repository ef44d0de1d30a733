// tsm search through the built CLI on a copy of vault-example: golden output per format, every filter,
// temporal expressions, FTS5 syntax as text, odd query sizes, zero hits in every format.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, copyVaultExample, makeVault, ROOT, TSM, tsm } from '../helpers/cli.js';

const NOW = '2026-11-22';
const ENV = { TSM_NOW: NOW, TZ: 'UTC' };
let vault = '';
const GOLDEN = join(ROOT, 'test/cli/golden');

function touchAll(dir: string, when: Date): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) touchAll(p, when);
    utimesSync(p, when, when);
  }
}

beforeAll(() => {
  const tmp = mkdtempSync(join(tmpdir(), 'tsm-search-e2e-'));
  vault = join(tmp, 'vault');
  copyVaultExample(vault);
  touchAll(vault, new Date('2026-11-20T00:00:00Z')); // mtime-dated notes get a fixed date
  const r = tsm(['index', '--vault', vault], { env: ENV });
  expect(r.code).toBe(0);
});
const onExit: (() => void)[] = [];
afterAll(() => {
  rmSync(join(vault, '..'), { recursive: true, force: true });
  for (const f of onExit) f();
});

function search(args: string[], extraEnv: Record<string, string> = {}) {
  return tsm(['search', ...args, '--vault', vault], { env: { ...ENV, ...extraEnv } });
}
function hits(args: string[]): { path: string; section: string; type: string; status: string | null; date: string; tags: string[] }[] {
  const r = search([...args, '-f', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}
function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
function parseXml(xml: string): void {
  const p = new SaxesParser();
  p.on('error', (e) => {
    throw e;
  });
  p.write(xml).close();
}

describe('golden outputs on vault-example', () => {
  const cases: [string, string[]][] = [
    ['lora-module.txt', ['LoRa モジュール', '-n', '5']],
    ['lora-module.json', ['LoRa モジュール', '-n', '5', '-f', 'json']],
    ['lora-vs-vhf-prompt.xml', ['犬の追跡装置でLoRaとVHFのどちらを使うべきか、前に調べた比較表を見せて', '-f', 'xml', '-n', '5']],
    ['battery.md', ['battery life of the collar', '-f', 'md', '-n', '3', '--detail', 'high']],
    ['antenna-full.json', ['antenna', '-f', 'json', '-n', '2', '--full']],
    ['sx1262.ids', ['SX1262', '--ids', '-n', '5']],
  ];
  for (const [name, args] of cases) {
    it(name, () => {
      const r = search(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^tsm: \d+ results for ".*"\n$/);
      if (name.endsWith('.xml')) parseXml(r.stdout);
      if (name.endsWith('.json')) JSON.parse(r.stdout);
      golden(name, r.stdout);
    });
  }
});

describe('the section a hit shows', () => {
  it('a note whose title holds the query shows its lead, not a link list that repeats a word of it', () => {
    const [first] = hits(['LoRa', '-n', '1']);
    expect(first.path).toBe('knowledge/lora/lora-module-guide.md');
    expect(first.section).toBe('LoRa通信モジュール選定ガイド > 概要');
  });
  it('an Obsidian Hub plugin note shows what the plugin does, not the badges whose URLs name it', () => {
    const badges = ['downloads', 'manifest-json/v', 'issues', 'stars'].map((b) => `![GitHub ${b}](https://img.shields.io/github/${b}/chhoumann/quickadd)`);
    const v = makeVault({
      '.obsidian/app.json': '{}',
      'Plugins/quickadd.md': `---\naliases:\n- QuickAdd\n---\n\n${badges.join('\n')}\n\n# QuickAdd\n\nPlugin ID: \`quickadd\`\nLinks: [GitHub repository](https://github.com/chhoumann/quickadd)\n\nQuickly add new pages or content to your vault.\n`,
      'Plugins/other.md': '# Other\n\nA plugin that has nothing to do with capture.\n',
    });
    onExit.push(v.cleanup);
    for (const query of ['quickadd', 'add new pages with quickadd']) {
      const r = tsm(['search', query, '-f', 'json', '-n', '1', '--vault', v.dir], { env: ENV });
      expect(r.code, r.stderr).toBe(0);
      const [first] = JSON.parse(r.stdout);
      expect(first.path).toBe('Plugins/quickadd.md');
      expect(first.snippet).toMatch(/^Plugin ID: quickadd/);
    }
  });
  it('a note whose title holds only part of the query shows a section on the rest', () => {
    const guide = hits(['LoRa 消費電力', '-n', '10']).find((h) => h.path === 'knowledge/lora/lora-module-guide.md');
    expect(guide?.section).not.toBe('LoRa通信モジュール選定ガイド > 概要');
    expect(guide?.section).toMatch(/^LoRa通信モジュール選定ガイド > /);
  });
});

describe('a query with nothing to rank by', () => {
  it('filters or exclusions alone find nothing, and stderr says what to add', () => {
    for (const query of ['tag:hardware', '-LoRa', 'tag:hardware -antenna']) {
      const r = search([query]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`tsm: ${JSON.stringify(query)} has nothing to rank by (filters and exclusions only): add a word to search for\n`);
    }
    for (const query of ['tag:hardware antenna', '"LoRa"', 'lora*', 'zzqx']) expect(search([query]).stderr).not.toMatch(/nothing to rank by/);
  });
});

describe('formats', () => {
  it('text output has no ANSI colours in a pipe', () => {
    expect(search(['LoRa']).stdout).not.toMatch(/\x1b\[/);
  });

  // isTerminal tells a pipe or a file by one fstat and asks isatty only of a character device: a terminal
  // still gets colours, a file and /dev/null (a character device, but no terminal) none.
  it.skipIf(!existsSync('/usr/bin/script'))('text output is coloured on a terminal, not in a file', () => {
    const out = join(vault, '..', 'search-out.txt');
    const cmd = (redirect: string) => `${process.execPath} ${TSM} search LoRa -n 2 --vault ${vault}${redirect}`;
    const env: NodeJS.ProcessEnv = { ...cleanEnv(ENV), TERM: 'xterm' };
    delete env.NO_COLOR;
    const onTty = spawnSync('/usr/bin/script', ['-qec', cmd(''), '/dev/null'], { env, encoding: 'utf8' });
    expect(onTty.status, onTty.stderr).toBe(0);
    expect(onTty.stdout).toMatch(/\x1b\[1m1\.\x1b\[0m/);
    const toFile = spawnSync('/usr/bin/script', ['-qec', cmd(` > ${out}`), '/dev/null'], { env, encoding: 'utf8' });
    expect(toFile.status, toFile.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^1\. \[/);
    expect(readFileSync(out, 'utf8')).not.toMatch(/\x1b\[/);
  });

  it('a reader that stops early (`| head`) ends the search quietly, exit 0', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`n${i}.md`] = `# Note ${i}\n\n${'LoRa field test notes, line after line. '.repeat(120)}`;
    const big = makeVault(files);
    onExit.push(big.cleanup);
    const args = [TSM, 'search', 'LoRa', '-n', '60', '-f', 'json', '--include-content', '60', '--vault', big.dir];
    const full = tsm(args.slice(1), { env: ENV });
    expect(Buffer.byteLength(full.stdout)).toBeGreaterThan(256 * 1024); // far more than a pipe holds
    const child = spawn(process.execPath, args, { env: cleanEnv(ENV) });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  });

  it('-f json, -f xml and related --json write DEL and C1 controls from a note as escapes (U+009B is CSI to a terminal), read back exact', () => {
    const v = makeVault({ 'c1.md': '# Csi marmot\n\nmarmot \u009b2J cleared \u007f del, [[gone\u009bname]]\n' });
    onExit.push(v.cleanup);
    const raw = /[\u007f-\u009f]/;
    const json = tsm(['search', 'marmot', '-f', 'json', '--vault', v.dir], { env: ENV });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toMatch(raw);
    expect(json.stdout).toContain('\\u009b2J');
    expect(JSON.parse(json.stdout)[0].snippet).toContain('marmot \u009b2J cleared \u007f del');
    const xml = tsm(['search', 'marmot', '-f', 'xml', '--vault', v.dir], { env: ENV });
    expect(xml.stdout).not.toMatch(raw);
    expect(xml.stdout).toContain('&#x009b;2J');
    parseXml(xml.stdout);
    const related = tsm(['related', 'c1', '--json', '--vault', v.dir], { env: ENV });
    expect(related.code, related.stderr).toBe(0);
    expect(related.stdout).not.toMatch(raw);
    expect(JSON.parse(related.stdout).outgoing[0].target).toBe('gone\u009bname');
  });

  it('xml: a <related> list names whole paths only (it ended `company/knowledge/lora/…`, a cut path naming no file)', () => {
    const names = [1, 2, 3, 4, 5].map((i) => `dog-tracker-lora-competitors-analysis-${i}`);
    const files: Record<string, string> = { 'hub.md': `# Ocelot hub\n\nocelot notes linking ${names.map((n) => `[[${n}]]`).join(' ')}\n` };
    for (const n of names) files[`company/knowledge/lora/${n}.md`] = `# ${n}\n\nunrelated body\n`;
    const v = makeVault(files);
    onExit.push(v.cleanup);
    const r = tsm(['search', 'ocelot', '-f', 'xml', '--vault', v.dir], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    const related = /<related>(.*)<\/related>/.exec(r.stdout)?.[1] ?? '';
    expect(related).not.toContain('…');
    const listed = related.split(', ');
    expect(listed.length).toBeGreaterThan(0);
    for (const p of listed) expect(existsSync(join(v.dir, p)), p).toBe(true);
  });

  it('zero hits in every format', () => {
    const q = 'xyzzyplughnothinghere';
    expect(search([q, '-f', 'json']).stdout).toBe('[]\n');
    expect(search([q, '-f', 'xml']).stdout).toBe(`<knowledge_search query="${q}" count="0" total="0"/>\n`);
    expect(search([q, '--ids']).stdout).toBe('');
    expect(search([q, '-f', 'md']).stdout).toMatch(/No results found/);
    const text = search([q]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(''); // `| wc -l` counts results: the count is stderr's
    expect(text.stderr).toBe(`tsm: 0 results for "${q}"\n`);
    expect(search(['gateway']).stderr).toBe('tsm: 1 result for "gateway"\n');
  });

  it('xml: the budget is shared by all snippets in rank order', () => {
    const r = search(['LoRa', '-f', 'xml', '-n', '5', '--budget', '120']);
    parseXml(r.stdout);
    const unescape = (t: string) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
    const snippets = [...r.stdout.matchAll(/<snippet>\n([\s\S]*?)\n<\/snippet>/g)].map((m) => unescape(m[1]));
    expect(Array.from(snippets.join('')).length).toBeLessThanOrEqual(120);
    expect(r.stdout).toContain('<snippet/>');
    const env = search(['LoRa', '-f', 'xml', '-n', '5'], { TSM_SNIPPET_BUDGET: '0' });
    expect(env.stdout).not.toContain('<snippet>');
  });

  it('json --include-content adds the whole file to the top N', () => {
    const h = JSON.parse(search(['antenna', '-f', 'json', '-n', '3', '--include-content', '1']).stdout);
    expect(h[0].file_content).toBe(readFileSync(join(vault, h[0].path), 'utf8'));
    expect(h[1].file_content).toBeUndefined();
  });

  it('json --include-content N with --all-sections: only the top N results carry the file, not every later section of the same note', () => {
    const h = JSON.parse(search(['LoRa', '-f', 'json', '-n', '10', '--all-sections', '--include-content', '1']).stdout) as Array<{ path: string; file_content?: string }>;
    expect(h.filter((x) => x.path === h[0].path).length).toBeGreaterThan(1); // the case: a later section of the top note
    expect(h[0].file_content).toBe(readFileSync(join(vault, h[0].path), 'utf8'));
    expect(h.slice(1).filter((x) => x.file_content !== undefined)).toEqual([]);
  });

  it('--all-sections lifts one result per note', () => {
    const one = hits(['LoRa', '-n', '50']);
    const all = hits(['LoRa', '-n', '50', '--all-sections']);
    expect(new Set(one.map((h) => h.path)).size).toBe(one.length);
    expect(all.length).toBeGreaterThan(one.length);
  });
});

describe('filters', () => {
  it('--type, --status, --tag, --path', () => {
    for (const h of hits(['LoRa', '--type', 'daily', '-n', '50'])) expect(h.type).toBe('daily');
    for (const h of hits(['LoRa', '--status', 'current', '-n', '50'])) expect(h.status).toBe('current');
    const tagged = hits(['LoRa', '--tag', 'lora', '-n', '50']);
    expect(tagged.length).toBeGreaterThan(0);
    for (const h of tagged) expect(h.tags).toContain('lora');
    for (const h of hits(['LoRa', '--path', 'knowledge/lora/', '-n', '50'])) expect(h.path.startsWith('knowledge/lora/')).toBe(true);
    const either = hits(['受信機 距離 表示', '--type', 'daily', '--type', 'session', '-n', '50']);
    for (const h of either) expect(['daily', 'session']).toContain(h.type);
    expect(either.map((h) => h.type)).toContain('session');
  });

  it('--after, --before, --year, --recent', () => {
    for (const h of hits(['LoRa', '--after', '2026-10', '-n', '50'])) expect(h.date >= '2026-10-01').toBe(true);
    for (const h of hits(['LoRa', '--before', '2026-03', '-n', '50'])) expect(h.date < '2026-03-01').toBe(true);
    for (const h of hits(['LoRa', '--year', '2026', '-n', '50'])) expect(h.date.startsWith('2026')).toBe(true);
    for (const h of hits(['LoRa', '--recent', '30d', '-n', '50'])) expect(h.date >= '2026-10-23').toBe(true);
  });

  it('bad filter values are clear usage errors', () => {
    for (const [flag, value, msg] of [
      ['--recent', 'garbage', /--recent takes/],
      ['--after', '2026-13', /--after takes YYYY/],
      ['--type', 'note', /--type takes daily, knowledge, session/],
      ['-f', 'yaml', /--format takes one of/],
      ['--limit', 'many', /--limit takes a whole number of results, 1 or more \(got "many"\)/],
    ] as const) {
      const r = search(['LoRa', flag, value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
  });

  it('a temporal expression puts the notes of its range first, then the rest when they do not fill the page; explicit flags win', () => {
    const inOctober = (h: { date: string }) => h.date >= '2026-10-01' && h.date < '2026-11-01';
    const lastMonth = hits(['先月のLoRa関連のメモ', '-n', '50']);
    const firstOther = lastMonth.findIndex((h) => !inOctober(h));
    expect(firstOther).toBeGreaterThan(0);
    expect(lastMonth.slice(firstOther).some(inOctober)).toBe(false);
    // A page the range fills holds only its notes, in the order they had under a filter. (Not their related
    // lists: those put first the notes the search ranked, and a filled page ranked only the range's.)
    const withoutRelated = (list: object[]) => list.map((h) => ({ ...h, related: undefined }));
    expect(withoutRelated(hits(['先月のLoRa関連のメモ', '-n', String(firstOther)]))).toEqual(withoutRelated(lastMonth.slice(0, firstOther)));
    // Last week (Nov 9–15) has one note on the antenna; the antenna note itself follows it.
    const lastWeek = hits(['what did I decide last week about the antenna', '-n', '5']).map((h) => h.path);
    expect(lastWeek[0]).toBe('daily/2026-11-15.md');
    expect(lastWeek).toContain('knowledge/hardware/antenna.md');
    expect(search(['what did I decide last week about the antenna', '-n', '5']).stderr).toMatch(
      /tsm: 1 match dated from 2026-11-09 to before 2026-11-16 \(read from the query\) first, then other dates/,
    );
    expect(search(['先月のLoRa関連のメモ', '-n', String(firstOther)]).stderr).not.toMatch(/first, then other dates/);
    const flagWins = hits(['先月のLoRa関連のメモ', '--year', '2026', '-n', '50']);
    expect(flagWins.some((h) => h.date < '2026-10-01')).toBe(true);
    // A flag's range is a filter, whatever it leaves out.
    const flagged = hits(['LoRa', '--after', '2026-10-01', '--before', '2026-11-01', '-n', '50']);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.every(inOctober)).toBe(true);
    const plain = search(['13月の予定', '-f', 'json']);
    expect(plain.code).toBe(0);
  });

  it('a date range read from the text that no matching note falls in is dropped; a flag never is', () => {
    // Nothing is dated 2016 ("10 years ago"): the words were incidental, not a filter that empties the
    // result. The same range as a flag stays a filter, and finds nothing.
    const fromText = hits(['LoRa modules 10 years ago', '-n', '50']);
    expect(fromText.length).toBeGreaterThan(0);
    expect(fromText.every((h) => !h.date.startsWith('2016'))).toBe(true);
    expect(search(['LoRa modules 10 years ago']).stderr).toMatch(/no match dated from 2016-01-01 to before 2017-01-01 \(read from the query\); searched every date/);
    expect(hits(['LoRa modules', '--year', '2016', '-n', '50'])).toEqual([]);
  });
});

describe('queries that must not break', () => {
  it('FTS5 syntax characters are plain text', () => {
    expect(tsm(['search', '--vault', vault, '-f', 'json', '--', '-LoRa'], { env: ENV }).code).toBe(0);
    for (const q of ['"LoRa', 'LoRa*', 'LoRa:SX1262', '(LoRa', 'LoRa NEAR antenna', 'LoRa AND OR NOT', '"', '*', ')', '^', '{head_words}: x']) {
      const r = search([q, '-f', 'json']);
      expect(r.code, `${q}: ${r.stderr}`).toBe(0);
      JSON.parse(r.stdout);
    }
    expect(hits(['"SX1262"']).length).toBeGreaterThan(0);
  });

  it('empty-ish, one-character and 10,000-character queries', () => {
    expect(search(['']).code).toBe(0);
    expect(search(['犬', '-f', 'json']).code).toBe(0);
    expect(search(['x', '-f', 'json']).code).toBe(0);
    const long = 'LoRaモジュールの消費電力について教えてください。'.repeat(400);
    const r = search([long, '-f', 'xml']);
    expect(r.code).toBe(0);
    parseXml(r.stdout);
    expect(search([]).code).toBe(2);
  });

  it('stderr quotes a 30 KB query (and a suggestion made of it) by its first 200 characters, as MCP and the hook do', () => {
    // Each line used to quote the whole query: `tsm: 1119 results for "<30 KB prompt>"`.
    const quotedIn = (line: string) => JSON.parse(/"(?:[^"\\]|\\.)*"/.exec(line)?.[0] ?? '""') as string;
    const counted = search([`antenaa ${'qwzxv\n'.repeat(5000)}`]);
    const lines = counted.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^tsm: 0 results for "antenaa qwzxv qwzxv .*…"$/);
    expect([...quotedIn(lines[0])]).toHaveLength(200);
    expect(lines[1]).toMatch(/^tsm: did you mean: antenna qwzxv .*…$/);
    expect([...lines[1].slice('tsm: did you mean: '.length)].length).toBeLessThanOrEqual(200);
    const unranked = search(['-zzqx '.repeat(5000)]).stderr.trimEnd().split('\n');
    expect(unranked[1]).toMatch(/^tsm: "-zzqx -zzqx .*…" has nothing to rank by/);
    for (const line of [...lines, ...unranked]) expect(line.length).toBeLessThan(300);
  });

  it('Japanese-only, English-only and mixed queries find the notes that answer them', () => {
    expect(hits(['技適'])[0].path).toBe('knowledge/regulatory/giteki.md');
    expect(hits(['spreading factor airtime'])[0].path).toBe('knowledge/lora/lora-spreading-factor.md');
    expect(hits(['SX1262 消費電力'])[0].path).toBe('knowledge/lora/sx1262-power-consumption.md');
  });

  it('the ignored private note never shows up', () => {
    expect(hits(['PRIVATE-CANARY-7f3a', '-n', '100']).map((h) => h.path)).not.toContain('drafts/private/salary-negotiation.md');
  });

  it('search builds the index first when none exists', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tsm-first-'));
    try {
      writeFileSync(join(tmp, 'n.md'), '# Note\n\nfirst search builds me');
      const r = tsm(['search', 'builds', '--vault', tmp, '-f', 'json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)[0].path).toBe('n.md');
      expect(r.stderr).toMatch(/no index yet/);
      expect(r.stderr).toMatch(/indexed 1 note in /); // was "1 notes"
      expect(statSync(join(tmp, '.tsm/index.db')).size).toBeGreaterThan(0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a note is found by a heading deep inside it, and edits and deletes keep that in step', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tsm-headings-'));
    const find = (q: string) => {
      const r = tsm(['search', q, '--vault', tmp, '-f', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path);
    };
    try {
      writeFileSync(join(tmp, 'a.md'), '# Field trip\n\nIntro.\n\n## Day one\n\nWalked.\n\n### Quokka sighting\n\nA small marsupial.\n');
      writeFileSync(join(tmp, 'b.md'), '# Other\n\nNothing here.\n');
      expect(tsm(['index', '--vault', tmp]).code).toBe(0);
      expect(find('quokka')).toEqual(['a.md']);
      writeFileSync(join(tmp, 'a.md'), '# Field trip\n\nIntro.\n\n## Day one\n\nWalked.\n\n### Wombat burrow\n\nA small marsupial.\n');
      expect(tsm(['index', '--vault', tmp]).code).toBe(0);
      expect(find('quokka')).toEqual([]);
      expect(find('wombat')).toEqual(['a.md']);
      rmSync(join(tmp, 'a.md'));
      expect(tsm(['index', '--vault', tmp]).code).toBe(0);
      expect(find('wombat')).toEqual([]);
      expect(tsm(['doctor', '--vault', tmp]).code).toBe(0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a note that holds only frontmatter is found by its title, aliases and description', () => {
    // It had no section, so it was indexed and never found, even by its exact title.
    const v = makeVault({
      'entity/_index.md': '---\ntitle: Walrus Handbook\naliases: [Tusk Guide]\ndescription: everything about narwhals\n---\n',
      'empty.md': '',
      'other.md': '# Other\n\nA walrus is mentioned once here.\n',
    });
    onExit.push(v.cleanup);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const first = (q: string) => (JSON.parse(tsm(['search', q, '--vault', v.dir, '-f', 'json']).stdout) as { path: string; snippet: string }[])[0];
    expect(first('Walrus Handbook').path).toBe('entity/_index.md');
    expect(first('Tusk Guide').path).toBe('entity/_index.md');
    expect(first('narwhals')).toMatchObject({ path: 'entity/_index.md', snippet: 'everything about narwhals' });
    expect(first('empty').path).toBe('empty.md');
    // An index written before this rule has such a note with no section: the next sync parses it again,
    // once, though its file is unchanged (simulated by the count an older tsm left).
    const conn = new Database(join(v.dir, '.tsm', 'index.db'));
    conn.prepare("UPDATE notes SET section_count = 0 WHERE path = 'entity/_index.md'").run();
    conn.close();
    expect(tsm(['index', '--vault', v.dir]).stdout).toMatch(/^0 added, 1 updated, 0 removed, 2 unchanged/);
    expect(tsm(['index', '--vault', v.dir]).stdout).toMatch(/^0 added, 0 updated, 0 removed, 3 unchanged/);
    expect(first('Walrus Handbook').path).toBe('entity/_index.md');
  });

  it('a note whose title is the whole query comes first, however far down its words rank it', () => {
    // The Obsidian Hub's `Obsidian Sync` concept note ranked 68th, behind every `*-sync` plugin note, and
    // the named-note refinement read only the first 30.
    // A long note whose text never says `sync`: its title's one word counts for little against a long body.
    const filler = Array.from({ length: 1500 }, (_, i) => ['river', 'stone', 'cloud', 'field', 'alpha', 'omega'][(i * 7) % 6]).join(' ');
    const files: Record<string, string> = { 'concepts/Obsidian Sync.md': `# Obsidian Sync\n\n${filler}\n` };
    // `obsidian` in every note: too common to rank by, so the query ranks by `sync` alone.
    for (let i = 0; i < 60; i++) files[`plugins/plugin-${i}-sync.md`] = `# Plugin ${i} Sync\n\nAn Obsidian plugin to sync your vault: sync notes with sync ${i}.\n`;
    const v = makeVault(files);
    onExit.push(v.cleanup);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const paths = (q: string) => (JSON.parse(tsm(['search', q, '--vault', v.dir, '-f', 'json', '-n', '100']).stdout) as { path: string }[]).map((h) => h.path);
    expect(paths('Obsidian Sync')[0]).toBe('concepts/Obsidian Sync.md');
    expect(paths('obsidian-sync')[0]).toBe('concepts/Obsidian Sync.md'); // compared by letters and digits
    expect(paths('sync')[0]).not.toBe('concepts/Obsidian Sync.md'); // a word of the title is not its name
  });

  it('finds the note named by the query among many whose names start with it', () => {
    // The handbook has 570 notes whose names start with `gitlab`; the ones titled `GitLab` were not among the
    // 20 best of a lookup by bm25 over the name columns (their path words make their names long).
    const filler = Array.from({ length: 1500 }, (_, i) => ['river', 'stone', 'cloud', 'field'][(i * 7) % 4]).join(' ');
    const files: Record<string, string> = { 'a/deep/folder/of/many/words/walrus.md': `---\ntitle: Walrus\n---\n\n${filler}\n` };
    for (let i = 0; i < 60; i++) files[`w/walrus-${i}.md`] = `# Walrus ${i}\n\nThe walrus ${i}: walrus facts, walrus tusks.\n`;
    const v = makeVault(files);
    onExit.push(v.cleanup);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const r = tsm(['search', 'Walrus', '--vault', v.dir, '-f', 'json', '-n', '3']);
    expect((JSON.parse(r.stdout) as { path: string }[])[0].path).toBe('a/deep/folder/of/many/words/walrus.md');
  });

  it('a query that names only dates lists that range\'s notes, newest first, and suggests nothing', () => {
    // It found nothing, and `3 days ago` got "did you mean: 3 days go".
    const paths = (q: string) => {
      const r = search([q, '-f', 'json'], ENV);
      expect(r.code, r.stderr).toBe(0);
      return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path), stderr: r.stderr };
    };
    const yesterday = paths('yesterday');
    expect(yesterday.paths).toEqual(['daily/2026-11-21.md']);
    expect(yesterday.stderr).toContain('tsm: "yesterday" names only dates: the notes dated from 2026-11-21 to before 2026-11-22, newest first');
    const month = paths('this month');
    expect(month.paths.filter((p) => p.startsWith('daily/'))).toEqual(['daily/2026-11-21.md', 'daily/2026-11-19.md', 'daily/2026-11-15.md']);
    const none = paths('3 days ago');
    expect(none.stderr).not.toMatch(/did you mean/);
    // Shown by its first section with text, not the daily note's bare date heading.
    expect((JSON.parse(search(['yesterday', '-f', 'json'], ENV).stdout) as { snippet: string }[])[0].snippet).toContain('TrailPaw');
    // --all-sections lists the same notes (it found nothing); -n cuts the list, total counts the range.
    const sections = search(['yesterday', '--all-sections', '-f', 'json'], ENV);
    expect((JSON.parse(sections.stdout) as { path: string }[]).map((h) => h.path)).toEqual(['daily/2026-11-21.md']);
    // A date flag wins over the text's date, as it always does: the flag's range is listed (it found nothing).
    const flagged = search(['yesterday', '--after', '2026-11-15', '-f', 'json'], ENV);
    const flaggedDates = (JSON.parse(flagged.stdout) as { date: string }[]).map((h) => h.date);
    expect(flaggedDates.length).toBeGreaterThan(1);
    expect(flaggedDates.every((d) => d >= '2026-11-15')).toBe(true);
    expect(flagged.stderr).toContain('names only dates: the notes dated from 2026-11-15, newest first');
    const cut = search(['this month', '-n', '1', '--ids'], ENV);
    expect(cut.stdout.trim().split('\n')).toHaveLength(1);
    expect(cut.stderr).toMatch(new RegExp(`tsm: ${month.paths.length} results for "this month"`));
    // A word to rank by keeps the ranking: the range's matches first, then the rest.
    expect(paths('LoRa yesterday').stderr).not.toMatch(/names only dates/);
  });

  it('a word or two no note of the range holds list the range first; a longer question searches every date', () => {
    const run = (q: string) => {
      const r = search([q, '-f', 'json', '-n', '5'], ENV);
      expect(r.code, r.stderr).toBe(0);
      return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path), stderr: r.stderr };
    };
    // "summarize" and 作業 are in no note of the range: these found nothing, or ranked other dates by `do`.
    for (const [q, first] of [
      ['summarize last week', 'daily/2026-11-15.md'],
      ['what did I do yesterday?', 'daily/2026-11-21.md'],
      ['昨日の作業を続けて', 'daily/2026-11-21.md'],
    ]) {
      const r = run(q);
      expect(r.paths[0], q).toBe(first);
      expect(r.stderr).toMatch(/holds its words: the \d+ notes? of those dates first, newest first, then other dates/);
    }
    // Three words the range does not hold are a question of their own: its dates were incidental.
    const long = run('sourdough starter hydration yesterday');
    expect(long.paths[0]).toBe('knowledge/personal/cooking/sourdough.md');
    expect(long.stderr).toMatch(/searched every date/);
    // MCP carries it as dates_listed (the same response field).
  });

  it('a day written out is a date range, and still words when its range holds no match', () => {
    const run = (q: string) => {
      const r = search([q, '-f', 'json', '-n', '5'], ENV);
      expect(r.code, r.stderr).toBe(0);
      return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path), stderr: r.stderr };
    };
    // The day alone lists its notes, as `yesterday` does; so does a span of days.
    const day = run('2026-07-18');
    expect(day.paths).toEqual(['daily/2026-07-18.md']);
    expect(day.stderr).toContain('"2026-07-18" names only dates: the notes dated from 2026-07-18 to before 2026-07-19');
    expect(run('from July 1 to July 20').stderr).toContain('the notes dated from 2026-07-01 to before 2026-07-21');
    // No note of that day holds `antenna`: one word, so the day's note is listed first.
    const antenna = run('antenna 2026-07-18');
    expect(antenna.paths[0]).toBe('daily/2026-07-18.md');
    expect(antenna.stderr).toMatch(/no note dated from 2026-07-18 to before 2026-07-19 \(read from the query\) holds its words/);
    // Three words, none in that day's note: the search looks past the range with the day as words again,
    // and the day's note, titled by the date, still comes first (as before days were read as dates).
    const whip = run('antenna whip choice 2026-07-18');
    expect(whip.paths[0]).toBe('daily/2026-07-18.md');
    expect(whip.stderr).toMatch(/no match dated from 2026-07-18 to before 2026-07-19 \(read from the query\); searched every date/);
    // A day no note is dated: its words are searched, not an empty list.
    const undated = run('2026-07-19');
    expect(undated.paths.length).toBeGreaterThan(0);
    expect(undated.stderr).not.toMatch(/names only dates/);
    expect(undated.stderr).toMatch(/no match dated from 2026-07-19/);
  });

  it('two dates of a query: both when they meet, else the first and a notice; a day of no date is said', () => {
    const run = (q: string) => {
      const r = search([q, '-f', 'json', '-n', '5'], ENV);
      expect(r.code, r.stderr).toBe(0);
      return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path), stderr: r.stderr };
    };
    // `yesterday` was dropped: the range was the day before's alone.
    const both = run('the day before yesterday and yesterday');
    expect(both.stderr).toContain('names only dates: the notes dated from 2026-11-20 to before 2026-11-22');
    expect(both.paths[0]).toBe('daily/2026-11-21.md');
    const apart = run('2026-07-18 and 2026-11-15');
    expect(apart.paths[0]).toBe('daily/2026-07-18.md');
    expect(apart.stderr).toContain(
      'tsm: the query\'s date range is "2026-07-18" alone, not "2026-11-15" (a date apart from it): to cover both, write "from 2026-07-18 to 2026-11-15"; or search each',
    );
    // The day written out counts before `yesterday`, though written after it: the notice names which.
    const later = run('yesterday antenna and 2026-07-18');
    expect(later.stderr).toContain('tsm: the query\'s date range is "2026-07-18" alone, not "yesterday" (a date apart from it)');
    expect(later.stderr).not.toMatch(/first date of the query/);
    // The second day stays words: its note, titled by the date, follows the first day's.
    expect(apart.paths).toContain('daily/2026-11-15.md');
    // A day that names no date is text, and the span it starts is not read as its other day.
    const impossible = run('from 2026-02-30 to 2026-07-18');
    expect(impossible.stderr).toContain('tsm: 2026-02-30 is no date: searched as words');
    expect(impossible.stderr).not.toMatch(/dated from 2026-07-18/);
  });

  it('TSM_NOW must be a date', () => {
    const r = search(['LoRa'], { TSM_NOW: 'soon' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TSM_NOW must be an ISO date/);
  });
});
