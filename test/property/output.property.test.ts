// Property test through the whole pipeline (docs/search.md, docs/reliability.md): whatever a note contains — markup that attacks
// XML or JSON, control characters, lone surrogates, invalid UTF-8 — once it is indexed and found, the
// XML of the prompt hook, the hook's JSON and `-f json` are always well-formed and complete.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJson } from '../../src/format/json.js';
import { formatXml } from '../../src/format/xml.js';
import { hookOutput } from '../../src/hooks/output.js';
import { openReader } from '../../src/index/db.js';
import { syncVault } from '../../src/index/sync.js';
import { search } from '../../src/search/search.js';
import { loadConfig } from '../../src/vault/config.js';
import { writeFiles } from '../helpers/cli.js';
import { child, elements, parseXml, textOf } from '../format/xml-tree.js';

/** Each run indexes a vault: a sixth of the other property tests' runs. */
const RUNS = { numRuns: Math.ceil(Number(process.env.TSM_PROPERTY_RUNS ?? 300) / 6) };
/** A word every generated note holds, so the search always finds them. */
const ANCHOR = 'zqxanchor';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const NASTY = [
  '<', '>', '&', '"', "'", ']]>', '<![CDATA[', '</snippet>', '</knowledge_search>', '<result index="9">', '&amp;', '&#0;',
  '&lt;', '\u0000', '\u0001', '\u0008', '\u000b', '\u001b[31m', '\u007f', '\ufffe', '\uffff', '\ud800', '\udfff', '😀', '\r',
  '\u2028', '\\', '\\"', '"}', '{"a":', '\n', '\n\n', '# ', '## ', '```', '---', '[[x|y]]', '[t](u.md)', '|', '**', '<div>',
];

const text = fc
  .array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('電池', 'LoRa', ANCHOR)), {
    maxLength: 40,
  })
  // No `%%`: an Obsidian comment would hide the anchor by design (test/parse/obsidian-comments.test.ts).
  .map((parts) => parts.join('').replace(/%(?=%)/g, '% '));

/**
 * A note: random text with the anchor in a heading or the body; sometimes raw bytes that are not UTF-8.
 * No NUL bytes: a file holding one is binary, skipped by design (tested with the parser).
 */
const note = fc.oneof(
  fc.tuple(text, text, text, fc.boolean()).map(([title, a, b, inHeading]) =>
    (inHeading ? `# ${title}\n\n## ${a} ${ANCHOR}\n\n${b}\n` : `# ${title}\n\n${a}\n\n${ANCHOR} ${b}\n`).replace(/\u0000/g, ''),
  ),
  fc.tuple(text, fc.uint8Array({ maxLength: 64 })).map(([t, bytes]) =>
    Buffer.concat([Buffer.from(`# bytes\n\n${ANCHOR} `), Buffer.from(bytes.filter((b) => b !== 0)), Buffer.from(`\n${t.replace(/\u0000/g, '')}\n`)]),
  ),
);

describe('random note text through index, search and formats', () => {
  it('always gives well-formed XML, hook JSON and search JSON with every hit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(note, { minLength: 1, maxLength: 3 }), text, fc.nat(1500), fc.boolean(), async (notes, extra, budget, all) => {
        const dir = mkdtempSync(join(tmpdir(), 'tsm-output-prop-'));
        const files: Record<string, string | Buffer> = { '.tsm/.keep': '' };
        notes.forEach((content, i) => (files[`n${i}.md`] = content));
        writeFiles(dir, files);
        const cfg = loadConfig({ vaultFlag: dir, env: {} });
        await syncVault(cfg);
        const db = openReader(cfg.db);
        try {
          for (const query of [ANCHOR, `${ANCHOR} ${extra}`]) {
            const resp = search(db, { query, limit: 10, allSections: all });
            expect(resp.hits.length, `"${query}" finds the notes`).toBeGreaterThan(0);

            const xml = formatXml(resp, { budget });
            expect(LONE_SURROGATE.test(xml)).toBe(false);
            const root = parseXml(xml);
            expect(root.name).toBe('knowledge_search');
            expect(root.attrs.query).toContain(ANCHOR);
            const results = elements(root, 'result');
            expect(results).toHaveLength(resp.hits.length);
            results.forEach((r, i) => {
              expect(textOf(child(r, 'source'))).toBe(resp.hits[i].path);
              expect(child(r, 'section')).toBeDefined();
              expect(child(r, 'snippet')).toBeDefined();
            });

            // The prompt hook wraps that XML in one JSON object.
            const hook = JSON.parse(hookOutput('UserPromptSubmit', xml)) as { hookSpecificOutput: { additionalContext: string } };
            expect(hook.hookSpecificOutput.additionalContext).toBe(xml);

            const json = JSON.parse(formatJson(resp, { full: true })) as { path: string; snippet: string; content: string }[];
            expect(json.map((h) => h.path)).toEqual(resp.hits.map((h) => h.path));
            json.forEach((h, i) => expect(h.content).toBe(resp.hits[i].content));
          }
        } finally {
          db.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      RUNS,
    );
  }, 120_000);
});
