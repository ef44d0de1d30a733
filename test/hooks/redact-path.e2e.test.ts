// End to end: a note whose FILE NAME holds a token is shown to the model with the token redacted, alike by the
// BUILT `tsm hook` (prompt and SessionStart) and by `tsm serve`'s MCP tools (text/redact.ts redactNotePath;
// docs/claude-code.md "What the hooks inject is redacted too"). The hook injected the path as it was, while
// MCP, which redacts every string of its answers, sent `[REDACTED]`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeVault, tsm } from '../helpers/cli.js';
import { servedClient } from '../helpers/served-client.js';
import { removeTree } from '../helpers/remove-tree.js';
import { elements, parseXml } from '../format/xml-tree.js';
import { ok } from '../mcp/client.js';

const TOKEN = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const SHOWN = 'keys/[REDACTED].md';

let vault: { dir: string; cleanup: () => void };
let client: Client;

beforeAll(async () => {
  vault = makeVault({
    [`keys/${TOKEN}.md`]: '# Relay antenna\n\nThe relay antenna mast is guyed with three wires.\n',
    'relay.md': `# Relay site\n\nThe relay antenna site plan, see [[${TOKEN}]] for the mast.\n`,
  });
  const indexed = tsm(['index', '--vault', vault.dir]);
  expect(indexed.code, indexed.stderr).toBe(0);
  client = await servedClient(vault.dir, 'tsm-redact-path-e2e');
}, 60_000);

afterAll(async () => {
  await client?.close();
  // SessionStart starts a background `tsm index` that may still write into the vault.
  if (vault) removeTree(vault.dir);
});

function hook(payload: Record<string, unknown>): string {
  const r = tsm(['hook', '--vault', vault.dir], { cwd: vault.dir, input: JSON.stringify({ session_id: 's1', transcript_path: '/nowhere/s1.jsonl', cwd: vault.dir, ...payload }) });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

it('the prompt hook shows the path as MCP does: [REDACTED]', async () => {
  const xml = hook({ hook_event_name: 'UserPromptSubmit', prompt: 'relay antenna mast' });
  expect(xml).not.toContain('ghp_');
  const sources = elements(parseXml(xml), 'result').map((r) => elements(r, 'source')[0].children.join(''));
  expect(sources).toContain(SHOWN);

  const found = await ok(client, 'search', { query: 'relay antenna mast' });
  expect(found.results.map((r: { path: string }) => r.path)).toContain(SHOWN);
});

it('SessionStart lists the note by the same path', async () => {
  const md = hook({ hook_event_name: 'SessionStart', source: 'startup' });
  expect(md).toContain(SHOWN);
  expect(md).not.toContain('ghp_');
  expect(JSON.stringify(await ok(client, 'recent_context', {}))).toContain(SHOWN);
});

it('`tsm search` in the terminal shows the path as it is', () => {
  const r = tsm(['search', '--vault', vault.dir, 'relay antenna mast']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain(`keys/${TOKEN}.md`);
});
