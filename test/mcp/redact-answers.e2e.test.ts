// End to end: the BUILT `tsm serve`, driven by the SDK's MCP client, answers with the secrets of the user's own
// notes redacted (docs/mcp.md), as the prompt hook injects them: a tool's answer goes to the model without the
// user asking. Each answer still parses, and read_note keeps every line's number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeVault, tsm } from '../helpers/cli.js';
import { servedClient } from '../helpers/served-client.js';
import { AWS_NOTE, CUT_KEY, expectNoSecret, MID_KEY, MID_NOTE, PLAIN_NOTE, SECRETS, SSH_KEY } from '../helpers/secret-notes.js';
import { call, ok } from './client.js';
import { elements, parseXml } from '../format/xml-tree.js';

/** A key block of 25 lines from line 5 to 31: a page of read_note can start or end inside it. */
const PAGED_NOTE = ['# Paged', '', 'The relay key, then more text.', '', '-----BEGIN RSA PRIVATE KEY-----', ...CUT_KEY, '-----END RSA PRIVATE KEY-----', '', 'Relay notes after the key.', ''].join('\n');

let vault: { dir: string; cleanup: () => void };
let client: Client;

beforeAll(async () => {
  vault = makeVault({ 'infra/aws.md': AWS_NOTE, 'infra/bastion.md': MID_NOTE, 'infra/paged.md': PAGED_NOTE, 'release.md': PLAIN_NOTE });
  const indexed = tsm(['index', '--vault', vault.dir]);
  expect(indexed.code, indexed.stderr).toBe(0);
  client = await servedClient(vault.dir, 'tsm-redact-e2e');
}, 60_000);

afterAll(async () => {
  await client?.close();
  vault?.cleanup();
});

/** The tool's whole answer as the model reads it (every text item). */
async function answer(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(client, name, args);
  expect(r.isError, r.text).toBe(false);
  return r.text + (r.notice === undefined ? '' : JSON.stringify(r.notice));
}

describe('MCP answers have the notes\' secrets redacted', () => {
  it('search, get_sections, retrieve_memory, timeline, recent_context, file_history', async () => {
    const found = await ok(client, 'search', { query: 'connect aws db' });
    const hit = found.results.find((r: { path: string }) => r.path === 'infra/aws.md');
    expect(hit.preview).toContain('[REDACTED]');
    expectNoSecret(JSON.stringify(found), SSH_KEY);

    const sections = await ok(client, 'get_sections', { ids: [hit.id] });
    expect(sections[0].text).toContain(`DB_PASSWORD=[REDACTED]`);
    expect(sections[0].text).toContain('How to connect to the aws db from the laptop.');
    expectNoSecret(JSON.stringify(sections), SSH_KEY);

    const memory = await answer('retrieve_memory', { query: 'connect aws db', detail: 'high' });
    expect(memory).toContain('**Details:**');
    expectNoSecret(memory, SSH_KEY);

    expectNoSecret(await answer('timeline', { anchor: hit.id }), SSH_KEY);
    expectNoSecret(await answer('recent_context', {}), [...SSH_KEY, ...MID_KEY, ...CUT_KEY]);
    const history = await ok(client, 'file_history', { file_path: '.aws/credentials' });
    expect(JSON.stringify(history)).toContain('[REDACTED]');
    expectNoSecret(JSON.stringify(history), SSH_KEY);
  });

  it('a search whose passage opens inside a key block shows none of it', async () => {
    const found = await ok(client, 'search', { query: 'zebra deployment' });
    expect(found.results[0].path).toBe('infra/bastion.md');
    expect(found.results[0].preview).toContain('Zebra deployment');
    expectNoSecret(JSON.stringify(found), MID_KEY);
  });

  it('read_note: a whole note, a page that starts inside a key block and one that ends inside it; line numbers kept', async () => {
    const whole = await ok(client, 'read_note', { path: 'infra/aws.md' });
    expect(whole.text).toContain(`DB_PASSWORD=[REDACTED]`);
    expectNoSecret(whole.text, SSH_KEY);

    const lines = PAGED_NOTE.split('\n');
    const after = lines.indexOf('Relay notes after the key.') + 1;
    for (const [from, count] of [[1, 8], [10, 4], [20, 20]]) {
      const page = await ok(client, 'read_note', { path: 'infra/paged.md', from_line: from, lines: count });
      expectNoSecret(page.text, CUT_KEY);
      expect(page.text).not.toContain('END RSA PRIVATE KEY');
      // Every line keeps its number: the page has as many lines as asked, numbered from from_line.
      const numbers = (page.text as string).split('\n').map((l) => Number(l.slice(0, l.indexOf('\t'))));
      expect(numbers).toEqual(Array.from({ length: Math.min(count, page.total_lines - from + 1) }, (_, i) => from + i));
      if (from + count > after) expect(page.text).toContain(`${after}\tRelay notes after the key.`);
    }
  });

  it('hook_context answers the prompt hook\'s block, redacted and well-formed', async () => {
    const r = await call(client, 'hook_context', { prompt: 'how do I connect to the aws db' });
    const xml = JSON.parse(r.text).hookSpecificOutput.additionalContext as string;
    expect(elements(parseXml(xml), 'result').length).toBeGreaterThan(0);
    expect(xml).toContain('[REDACTED]');
    expectNoSecret(xml, SSH_KEY);
  });

  it('a note without secrets comes as written', async () => {
    const found = await ok(client, 'search', { query: 'release checklist' });
    const id = found.results.find((r: { path: string }) => r.path === 'release.md').id;
    const [section] = await ok(client, 'get_sections', { ids: [id] });
    expect(`# Release checklist\n\n${section.text}\n`).toBe(PLAIN_NOTE);
    expect(JSON.stringify(found)).not.toContain('[REDACTED]');
    const note = await ok(client, 'read_note', { path: 'release.md' });
    expect(note.text).toBe(PLAIN_NOTE.trimEnd().split('\n').map((l, i) => `${i + 1}\t${l}`).join('\n'));
  });

  it('the index keeps the note as written: `tsm search` in the terminal shows it', () => {
    const r = tsm(['search', '--vault', vault.dir, 'connect aws db']);
    expect(r.stdout).toContain(SECRETS.dbPassword);
  });
});
