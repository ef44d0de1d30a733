// read_note pages across an edit: an agent read page 1, the note was edited (lines inserted above where page 2
// starts), and page 2 was the continuation of the new text, repeating lines page 1 had shown, without a word.
// Each page carries the version of the text it came from; passing it back refuses a page of another text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fails, ok } from './client.js';
import { buildFixture, type Fixture } from './fixture.js';
import { connect } from './setup.js';

// A line separator (U+2028) is no line ending to the parser, nor to Obsidian; a lone CR is one (CommonMark).
const separated = '# Otter log\n\nA line\u2028with a separator and a\rcarriage return.\n\n## Otter dive\n\nThe otter dives.\n';

const body = ['# Walrus log', '', ...Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the walrus log.`)].join('\n') + '\n';

let fx: Fixture;
let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  fx = await buildFixture({
    'log.md': { type: 'knowledge', date: '2026-01-01', body },
    'otter.md': { type: 'knowledge', date: '2026-01-01', body: separated },
  });
  ({ client, close } = await connect(fx.cfg));
});
afterAll(async () => {
  await close();
  fx.cleanup();
});

describe('read_note pages', () => {
  it('of an unchanged note continue with the version of the first page', async () => {
    const first = await ok(client, 'read_note', { path: 'log.md', lines: 10 });
    expect(first.version).toMatch(/^[0-9a-f]{12}$/);
    const second = await ok(client, 'read_note', { path: 'log.md', from_line: first.next_from_line, lines: 10, version: first.version });
    expect(second.version).toBe(first.version);
    expect(second.text.split('\n')[0]).toBe(`${first.next_from_line}\t${readFileSync(join(fx.vault, 'log.md'), 'utf8').split('\n')[first.to_line]}`);
  });

  it('after an edit: the next page is refused, naming the fix, and a read from the start gives the new version', async () => {
    const file = join(fx.vault, 'log.md');
    const first = await ok(client, 'read_note', { path: 'log.md', lines: 10 });
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [...lines.slice(0, 6), 'An inserted line.', 'Another inserted line.', ...lines.slice(6)].join('\n'));
    const message = await fails(client, 'read_note', { path: 'log.md', from_line: first.next_from_line, lines: 10, version: first.version });
    expect(message).toMatch(new RegExp(`^log\\.md changed since the page of version ${first.version} was read \\(now [0-9a-f]{12}\\)`));
    expect(message).toMatch(/read it again from the start \(from_line 1, without version\)$/);
    const again = await ok(client, 'read_note', { path: 'log.md', lines: 10 });
    expect(again.version).not.toBe(first.version);
    expect(again.text).toContain('An inserted line.');
    const next = await ok(client, 'read_note', { path: 'log.md', from_line: again.next_from_line, version: again.version });
    expect(next.from_line).toBe(11);
    // A caller that does not pass a version gets the page as before.
    expect((await ok(client, 'read_note', { path: 'log.md', from_line: 11, lines: 1 })).text).toBe(next.text.split('\n')[0]);
  });
});

describe('read_note version', () => {
  it('that is no version is refused as such, not as an edit; an empty one is not given', async () => {
    // 'zzz' and '' were answered "log.md changed since the page of version zzz was read": the note had not
    // changed, and reading it again from the start with the same argument failed again.
    for (const version of ['zzz', 'abc', '0123456789abcdef']) {
      expect(await fails(client, 'read_note', { path: 'log.md', version })).toBe(
        `version takes the 12 hex digits an earlier page of read_note gave (got "${version}"); leave it out to read without that check`,
      );
    }
    const first = await ok(client, 'read_note', { path: 'log.md', lines: 5 });
    expect((await ok(client, 'read_note', { path: 'log.md', lines: 5, version: '' })).text).toBe(first.text);
    expect((await ok(client, 'read_note', { path: 'log.md', lines: 5, version: ` ${first.version.toUpperCase()} ` })).text).toBe(first.text);
  });
});

describe('read_note lines', () => {
  it('are the lines search and get_sections number: a line separator inside a line does not start one', async () => {
    const found = await ok(client, 'search', { query: 'otter dives' });
    const hit = found.results.find((r: { path: string }) => r.path === 'otter.md');
    const [section] = await ok(client, 'get_sections', { ids: [hit.id] });
    const page = await ok(client, 'read_note', { path: 'otter.md', from_line: section.line, lines: 1 });
    expect(page.text).toBe(`${section.line}\t## Otter dive`);
    const whole = await ok(client, 'read_note', { path: 'otter.md' });
    expect(whole.text).toMatch(/^\d+\tA line with a separator and a\n\d+\tcarriage return\.$/m);
    expect(whole.text).not.toMatch(/[\u2028\r]/);
  });
});
