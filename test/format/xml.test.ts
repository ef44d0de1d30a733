import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { budgetResults, budgetSnippets, formatXml, MAX_PATH_CHARS, MAX_RELATED_CHARS, MAX_SECTION_CHARS, relatedList } from '../../src/format/xml.js';
import { charLength, truncateText } from '../../src/text/chars.js';
import { HOSTILE, hit, response, seedResponse } from './fixtures.js';
import { child, elements, parseXml, textOf } from './xml-tree.js';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');

/** Seed 000's first example as the user wrote it (count adjusted to the two results shown). */
const SEED_TEXT = `<knowledge_search query="LoRa モジュール" count="2" total="12">
<result index="1" score="0.018">
<source type="daily">daily/daily/research/vhf-tracker-radio-options.md</source>
<section>VHFドッグトラッカー 無線方式調査シート > 比較マトリクス</section>
<snippet>
| 項目 | T99 (150MHz) | 429MHz LoRa | ...
</snippet>
<related>daily/daily/intel/2026-02-24.md, daily/daily/intel/2026-03-15.md</related>
</result>
<result index="2" score="0.016">
<source type="knowledge" status="current">company/knowledge/lora/dog-tracker-lora-competitors.md</source>
<section>LoRaベース ドッグトラッカー 競合調査 > keyさんのVHFドッグトラッカーとの比較</section>
<snippet>
| 項目 | LoRa製品 | LTE-M製品 | keyさんのVHF |
</snippet>
</result>
</knowledge_search>`;

const BIG = 1_000_000;

describe('formatXml: shape', () => {
  it('reproduces the documented <knowledge_search> example byte for byte (with > escaped as &gt;)', () => {
    expect(formatXml(seedResponse(), { budget: 1000 })).toBe(golden('seed-000.xml'));
  });

  it('reads, to an XML parser, exactly as the seed does', () => {
    expect(parseXml(formatXml(seedResponse(), { budget: 1000 }))).toEqual(parseXml(SEED_TEXT));
  });

  it('zero hits is a single empty element', () => {
    expect(formatXml(response('nonexistent topic', []), { budget: 1000 })).toBe(
      '<knowledge_search query="nonexistent topic" count="0" total="0"/>',
    );
    parseXml(formatXml(response('<&"\'>', []), { budget: 1000 }));
  });

  it('omits status when null, related when empty, and keeps 3 decimals', () => {
    const out = formatXml(response('q', [hit({ score: 0.1, status: null, related: [] })]), { budget: BIG });
    expect(out).toContain('score="0.100"');
    expect(out).toContain('<source type="knowledge">');
    expect(out).not.toContain('<related');
  });

  it('count is the number of results shown, total the number before the cut', () => {
    const root = parseXml(formatXml(response('q', [hit(), hit(), hit()], 40), { budget: BIG }));
    expect(root.attrs).toEqual({ query: 'q', count: '3', total: '40' });
    expect(elements(root, 'result').map((r) => r.attrs.index)).toEqual(['1', '2', '3']);
  });

  it('puts a multi-line snippet on its own lines', () => {
    const out = formatXml(response('q', [hit({ snippet: 'line one\nline two' })]), { budget: BIG });
    expect(out).toContain('<snippet>\nline one\nline two\n</snippet>');
  });

  it('an empty (or all-illegal) snippet is <snippet/>', () => {
    const out = formatXml(response('q', [hit({ snippet: '' }), hit({ snippet: '\u0001\u0002' })]), { budget: BIG });
    expect(out.match(/<snippet\/>/g)).toHaveLength(2);
  });
});

describe('formatXml: snippet budget', () => {
  // The budget counts a result's path and section too: these hits print 5 characters besides the snippet.
  const bare = (snippet: string) => hit({ path: 'a.md', section: 'S', snippet });
  const s100 = (ch: string) => ch.repeat(100);
  const three = () => response('q', [bare(s100('a')), bare(s100('b')), bare(s100('c'))]);
  const snippets = (xml: string) => elements(parseXml(xml), 'result').map((r) => textOf(child(r, 'snippet')).trim());

  it('budget exactly at the total keeps every snippet whole', () => {
    expect(snippets(formatXml(three(), { budget: 315 }))).toEqual([s100('a'), s100('b'), s100('c')]);
  });

  it('budget one over the total keeps every snippet whole', () => {
    expect(snippets(formatXml(three(), { budget: 316 }))).toEqual([s100('a'), s100('b'), s100('c')]);
  });

  it('budget one under the total cuts the last snippet to what is left, ending with …', () => {
    const last = snippets(formatXml(three(), { budget: 314 }))[2];
    expect(charLength(last)).toBe(99);
    expect(last).toBe('c'.repeat(98) + '…');
  });

  it('exactly 40 characters left still gives a cut snippet', () => {
    const out = snippets(formatXml(three(), { budget: 255 }));
    expect(out[2]).toBe('c'.repeat(39) + '…');
  });

  it('fewer than 40 characters left gives <snippet/>', () => {
    const xml = formatXml(three(), { budget: 254 });
    expect(snippets(xml)).toEqual([s100('a'), s100('b'), '']);
    expect(xml).toContain('<snippet/>\n</result>\n</knowledge_search>');
  });

  it('once the budget is spent every later snippet is empty, even one that would fit', () => {
    const resp = response('q', [bare(s100('a')), bare(s100('b')), bare('tiny')]);
    expect(snippets(formatXml(resp, { budget: 160 }))).toEqual([s100('a'), 'b'.repeat(49) + '…', '']);
    expect(snippets(formatXml(resp, { budget: 145 }))).toEqual([s100('a'), '', '']);
  });

  it('cuts at a word boundary', () => {
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    const [cut] = budgetSnippets([bare(words)], 50);
    expect(cut).toBe('alpha beta gamma delta epsilon zeta eta…');
    expect(charLength(cut)).toBeLessThanOrEqual(45);
  });

  it('counts characters, not UTF-16 units (emoji, CJK)', () => {
    const emoji = '😀'.repeat(50);
    const cjk = '日本語'.repeat(10);
    expect(budgetSnippets([bare(emoji), bare(cjk)], 90)).toEqual([emoji, cjk]);
    const [cut] = budgetSnippets([bare(emoji)], 50);
    expect(cut).toBe('😀'.repeat(44) + '…');
  });

  it('budget 0 empties every snippet; a negative or NaN budget is an error', () => {
    expect(snippets(formatXml(three(), { budget: 0 }))).toEqual(['', '', '']);
    expect(() => formatXml(three(), { budget: -1 })).toThrow(RangeError);
    expect(() => formatXml(three(), { budget: Number.NaN })).toThrow(/budget/);
  });

  it('an infinite budget keeps everything', () => {
    expect(snippets(formatXml(three(), { budget: Infinity }))).toEqual([s100('a'), s100('b'), s100('c')]);
  });
});

describe('formatXml: hostile notes', () => {
  it('the test parser is strict: it rejects what escaping must prevent', () => {
    for (const bad of ['<a>\u0001</a>', '<a>\ud800</a>', '<a b="<"/>', '<a>&</a>', '<a>]]></a>', '<a></b>']) {
      expect(() => parseXml(bad)).toThrow();
    }
  });

  /** What survives escaping: the text minus the characters XML 1.0 cannot carry. */
  // Terminal escape sequences go whole (stripEscapeSequences), then what XML 1.0 cannot carry.
  const legal = (s: string) =>
    s.replace(/\u001b\[[0-9;]*m/g, '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '');

  it('keeps the structure whatever every field contains', () => {
    const evil = hit({
      path: `notes/${HOSTILE}.md`,
      type: HOSTILE as 'knowledge',
      status: HOSTILE,
      section: `${HOSTILE} > ${HOSTILE}`,
      snippet: `${HOSTILE}\n${HOSTILE}`,
      related: [HOSTILE, 'b.md'],
    });
    const xml = formatXml(response(HOSTILE, [evil, hit({ snippet: 'second' })]), { budget: BIG });
    const root = parseXml(xml);
    expect(root.name).toBe('knowledge_search');
    expect(root.attrs.query).toBe(legal(HOSTILE));
    const results = elements(root, 'result');
    expect(results).toHaveLength(2);
    const [first] = results;
    expect(first.children.filter((c) => typeof c !== 'string').map((c) => (c as { name: string }).name)).toEqual([
      'source',
      'section',
      'snippet',
      'related',
    ]);
    expect(child(first, 'source')!.attrs).toEqual({ type: legal(HOSTILE), status: legal(HOSTILE) });
    expect(textOf(child(first, 'source'))).toBe(legal(`notes/${HOSTILE}.md`));
    expect(textOf(child(first, 'section'))).toBe(legal(truncateText(`${HOSTILE} > ${HOSTILE}`, MAX_SECTION_CHARS)));
    expect(textOf(child(first, 'snippet'))).toBe(`\n${legal(HOSTILE)}\n${legal(HOSTILE)}\n`);
    expect(textOf(child(first, 'related'))).toBe(`${legal(HOSTILE)}, b.md`);
    expect(textOf(child(results[1], 'snippet')).trim()).toBe('second');
  });

  it('an attribute reads back whole: a newline, tab or carriage return in it is no space to a parser', () => {
    const xml = formatXml(response('two\twords', [hit({ status: 'in\nreview\tnow\r.' })]), { budget: BIG });
    const root = parseXml(xml);
    expect(root.attrs.query).toBe('two\twords');
    expect(child(elements(root, 'result')[0], 'source')!.attrs.status).toBe('in\nreview\tnow\r.');
    expect(xml.split('\n').filter((l) => l.startsWith('<source'))).toHaveLength(1);
  });

  it('never emits the raw closing tags or a CDATA end from note text', () => {
    const xml = formatXml(response('q', [hit({ snippet: '</snippet></result></knowledge_search>]]>' })]), { budget: BIG });
    expect(xml.match(/<\/snippet>/g)).toHaveLength(1);
    expect(xml.match(/<\/knowledge_search>/g)).toHaveLength(1);
    expect(xml).not.toContain(']]>');
  });

  it('does not break a surrogate pair when the budget cuts an emoji-rich snippet', () => {
    const resp = response('q', [hit({ snippet: 'x😀'.repeat(60) })]);
    for (let budget = 40; budget < 120; budget++) parseXml(formatXml(resp, { budget }));
  });
});

describe('formatXml: everything printed counts against the budget', () => {
  const long = (n: number) => 'Heading word '.repeat(Math.ceil(n / 13)).slice(0, n);

  it('a 10,000-character heading is cut to MAX_SECTION_CHARS and charged to the budget', () => {
    const huge = hit({ section: long(10_000), snippet: 'The answer is 42, with a sentence around it.' });
    const xml = formatXml(response('q', [huge, hit({ snippet: 'second result' })]), { budget: 1000 });
    const results = elements(parseXml(xml), 'result');
    expect(results).toHaveLength(2);
    const section = textOf(child(results[0], 'section'));
    expect(charLength(section)).toBeLessThanOrEqual(MAX_SECTION_CHARS);
    expect(section.endsWith('…')).toBe(true);
    expect(textOf(child(results[0], 'snippet')).trim()).toBe('The answer is 42, with a sentence around it.');
    expect(xml.length).toBeLessThan(2000);
  });

  it('the printed text of all results stays within the budget once each result has its path and section', () => {
    const hits = Array.from({ length: 5 }, (_, i) =>
      hit({ path: `deep/${'folder/'.repeat(60)}note-${i}.md`, section: long(5000), snippet: long(800), related: [`r/${long(400)}.md`] }),
    );
    const printed = budgetResults(hits, 1000);
    // Past the budget a result prints only its (capped) path and section: every snippet or related list
    // printed lies within the first 1,000 characters.
    let spent = 0;
    for (const r of printed) {
      spent += charLength(r.path) + charLength(r.section) + charLength(r.snippet) + charLength(r.related);
      if (r.snippet !== '' || r.related !== '') expect(spent).toBeLessThanOrEqual(1000);
    }
    expect(printed[0].snippet).not.toBe('');
    for (const r of printed) {
      expect(charLength(r.path)).toBeLessThanOrEqual(MAX_PATH_CHARS);
      expect(r.path.endsWith(`.md`)).toBe(true); // the file name survives the cut
    }
  });

  it('a related list leaves out the notes the block already shows as results, and spends nothing on them', () => {
    const hits = [
      hit({ path: 'a.md', section: 'A', snippet: 'x'.repeat(40), related: ['b.md', 'c.md', 'a.md'] }),
      hit({ path: 'b.md', section: 'B', snippet: 'y'.repeat(40), related: ['a.md'] }),
    ];
    const printed = budgetResults(hits, 100);
    // b.md is result 2 and a.md is the result itself: only c.md is news. The second list names only a
    // result, so it is empty; what it did not spend is left for what follows.
    expect(printed.map((r) => r.related)).toEqual(['c.md', '']);
    expect(printed.map((r) => r.snippet)).toEqual(['x'.repeat(40), 'y'.repeat(40)]);
  });

  it('a related list holds whole paths only: one past MAX_RELATED_CHARS is left out, never cut', () => {
    const paths = [1, 2, 3, 4, 5].map((i) => `company/knowledge/lora/dog-tracker-lora-competitors-analysis-${i}.md`); // 64 characters each
    const list = relatedList(paths);
    expect(list).toBe(paths.slice(0, 3).join(', '));
    expect(charLength(list)).toBeLessThanOrEqual(MAX_RELATED_CHARS);
    // A shorter path after one that did not fit still does, in its place.
    expect(relatedList([...paths, 'b.md'])).toBe([...paths.slice(0, 3), 'b.md'].join(', '));
    expect(relatedList([`r/${'x'.repeat(300)}.md`, 'c.md'])).toBe('c.md');
    const [r] = budgetResults([hit({ path: 'hub.md', section: 'Hub', snippet: 'x', related: paths })], BIG);
    expect(r.related.split(', ')).toEqual(paths.slice(0, 3));
  });

  it('a related list that does not fit is left out, the result stays', () => {
    const [r] = budgetResults([hit({ path: 'a.md', section: 'S', snippet: 'x'.repeat(40), related: ['b.md', 'c.md'] })], 50);
    expect(r.snippet).toBe('x'.repeat(40));
    expect(r.related).toBe('');
    const [fits] = budgetResults([hit({ path: 'a.md', section: 'S', snippet: 'x'.repeat(40), related: ['b.md', 'c.md'] })], 55);
    expect(fits.related).toBe('b.md, c.md');
  });
});
