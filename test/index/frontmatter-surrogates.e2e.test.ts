// A double-quoted YAML string can escape half a surrogate pair (`"\ud800"`), which no decoded note file holds:
// a title so written was stored as three U+FFFD, and a tag printed a lone surrogate in `-f json` (`"\udc00"`),
// which strict JSON readers (Rust's serde_json) reject. Such halves are read as U+FFFD, as undecodable bytes are.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

/** A `\uXXXX` escape of a surrogate that is not one half of an escaped pair. */
const LONE_ESCAPE = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

describe('frontmatter strings with escaped lone surrogates', () => {
  const vault = useIndexedVault({
    'lone.md': '---\ntitle: "Lone \\ud800 walrus"\ntags: ["t\\udc00x", "ok"]\naliases: ["\\ud83d"]\nstatus: "s\\ud800"\n"k\\udc01": v\n---\n# Part\n\nwalrus body, a pair kept: 🚀\n',
  });

  it('are read as U+FFFD: the JSON output holds no lone surrogate', () => {
    const r = tsm(['search', 'walrus', '-f', 'json', '--full'], { cwd: vault.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(LONE_ESCAPE);
    const [hit] = JSON.parse(r.stdout) as { title: string; section: string; status: string; tags: string[] }[];
    expect(hit.title).toBe('Lone \ufffd walrus');
    expect(hit.section).toBe('Lone \ufffd walrus > Part');
    expect(hit.status).toBe('s\ufffd');
    expect(hit.tags.sort()).toEqual(['ok', 't\ufffdx']);
  });
});
