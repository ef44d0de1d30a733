import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatIds, formatJson } from '../../src/format/json.js';
import { HOSTILE, hit, memoryResponse, response } from './fixtures.js';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');
const PREFS_FILE = '# Preferences\n\n## UI\n\nUser prefers dark mode.\n';

describe('formatJson', () => {
  it('matches the golden output with --full and one included file', () => {
    const resp = memoryResponse();
    const prefs = resp.hits.find((h) => h.path === 'knowledge/preferences.md')!;
    const out = formatJson(resp, { full: true, contents: new Map([[prefs.id, PREFS_FILE]]) });
    expect(out).toBe(golden('memory.json'));
  });

  it('has exactly the documented keys, in order, with null status and date when absent', () => {
    const [first] = JSON.parse(formatJson(response('q', [hit({ id: 7, status: null, date: null })])));
    expect(Object.keys(first)).toEqual([
      'rank', 'id', 'score', 'path', 'type', 'status', 'title', 'section', 'line', 'end_line', 'date', 'tags', 'snippet', 'related',
    ]);
    expect(first.status).toBeNull();
    expect(first.date).toBeNull();
    expect(first.id).toBe(7);
  });

  it('adds content only with full, file_content only for hits in the map', () => {
    const resp = response('q', [hit({ id: 1, path: 'a.md', content: 'A body' }), hit({ id: 2, path: 'b.md' }), hit({ id: 3, path: 'a.md' })]);
    const plain = JSON.parse(formatJson(resp));
    expect(plain[0]).not.toHaveProperty('content');
    expect(plain[0]).not.toHaveProperty('file_content');
    const withFile = JSON.parse(formatJson(resp, { contents: new Map([[1, 'whole file']]) }));
    expect(withFile[0].file_content).toBe('whole file');
    expect(withFile[0]).not.toHaveProperty('content');
    expect(withFile[1]).not.toHaveProperty('file_content');
    expect(withFile[2]).not.toHaveProperty('file_content'); // another section of a.md, not chosen
    expect(JSON.parse(formatJson(resp, { full: true }))[0].content).toBe('A body');
  });

  it('zero hits is []', () => {
    expect(formatJson(response('nothing', []))).toBe('[]');
  });

  it('stays valid JSON with hostile text, lone surrogates and non-finite numbers', () => {
    const resp = response(HOSTILE, [hit({ id: 9, path: HOSTILE, section: HOSTILE, snippet: HOSTILE, content: HOSTILE, score: Number.NaN })]);
    const [first] = JSON.parse(formatJson(resp, { full: true, contents: new Map([[9, HOSTILE]]) }));
    expect(first.score).toBeNull();
    expect(first.snippet).toBe(HOSTILE);
    expect(first.file_content).toBe(HOSTILE);
    expect(formatJson(resp)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('formatIds', () => {
  it('prints one section id per line, in rank order', () => {
    expect(formatIds(response('q', [hit({ id: 42 }), hit({ id: 7 }), hit({ id: 1000 })]))).toBe('42\n7\n1000');
  });

  it('prints nothing for zero hits', () => {
    expect(formatIds(response('q', []))).toBe('');
  });
});
