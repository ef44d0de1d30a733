// End to end: the BUILT `tsm serve`'s search preview (120 characters, cut after redaction) never shows part of
// a `[REDACTED]`: a token whose marker straddled the cut came as `… the token […`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeVault, tsm } from '../helpers/cli.js';
import { servedClient } from '../helpers/served-client.js';
import { ok } from './client.js';

const LEAD = 'The lora gateway config for the barn uses spreading factor nine and the token';
const TOKEN = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
// The token starts at character 112 of the section: its [REDACTED] runs over the preview's 120th.
const NOTE = `# Gateway\n\n${LEAD} ${'x'.repeat(32)} ${TOKEN} and more words after it about the barn.\n`;

let vault: { dir: string; cleanup: () => void };
let client: Client;

beforeAll(async () => {
  vault = makeVault({ 'gateway.md': NOTE });
  const indexed = tsm(['index', '--vault', vault.dir]);
  expect(indexed.code, indexed.stderr).toBe(0);
  client = await servedClient(vault.dir, 'tsm-redact-cut-e2e');
}, 60_000);

afterAll(async () => {
  await client?.close();
  vault?.cleanup();
});

it('search: a preview cut where a [REDACTED] stands drops the marker whole', async () => {
  const found = await ok(client, 'search', { query: 'lora gateway' });
  const preview: string = found.results[0].preview;
  expect(preview).toBe(`${LEAD} ${'x'.repeat(32)}…`);
  expect(JSON.stringify(found)).not.toContain('ghp_');
});
