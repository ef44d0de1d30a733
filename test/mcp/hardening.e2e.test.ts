// The built `tsm serve` against hostile input on its stdin, raw and through the SDK's client: every line
// that is not a usable request is answered with a JSON-RPC error (with its id when it has one), the
// server stays up and answers the next request, and a huge query is neither searched nor echoed whole.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, TSM, useIndexedVault, waitFor } from '../helpers/cli.js';
import { SYNTAX_VAULT } from '../helpers/syntax-vault.js';
import { call, fails, ok } from './client.js';
import { queryEcho } from '../../src/text/chars.js';

const vault = useIndexedVault(SYNTAX_VAULT);

/** A raw `tsm serve`: lines in, parsed JSON lines out. */
function serveRaw(): { child: ChildProcessWithoutNullStreams; replies: any[]; stderr: () => string; send: (line: string) => void } {
  const child = spawn(process.execPath, [TSM, 'serve', '--vault', vault.dir], { env: cleanEnv() });
  const replies: any[] = [];
  let buf = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return { child, replies, stderr: () => err, send: (line) => child.stdin.write(`${line}\n`) };
}

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const callSearch = (id: unknown, query: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"search","arguments":{"query":${query}}}}`;

describe('tsm serve on hostile stdin', () => {
  it('answers every bad line and stays up', async () => {
    const s = serveRaw();
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const cases: [string, unknown, number][] = [
      [callSearch(10, deep(100_000)), 10, -32600], // nested 100,000 deep
      [callSearch('big', `"${'a'.repeat(5 * 1024 * 1024)}"`), 'big', -32600], // one 5 MB line
      ['{"jsonrpc":"2.0","id":12,', null, -32700], // cut off
      ['{"id":13,"hello":"world"}', 13, -32600], // JSON, not JSON-RPC
      ['[{"jsonrpc":"2.0","id":14,"method":"ping"}]', null, -32600], // a batch
      [`{"jsonrpc":"2.0","id":"${'i'.repeat(100_000)}","method":"ping"}`, null, -32600], // a 100 kB id
      ['{"jsonrpc":"2.0","id":16,"method":"no/such/method"}', 16, -32601],
      [`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"get_sections","arguments":{"ids":[${Array(200_000).fill(1).join(',')}]}}}`, 17, 0],
      ['{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"search","arguments":null}}', 18, -32602],
      ['{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"hook_context","arguments":"LoRa"}}', 19, -32602],
    ];
    for (const [line] of cases) s.send(line);
    // A blank line carries no message in newline-delimited JSON-RPC: skipped, no answer (the SDK's reader answers none either).
    s.send('');
    s.send('  \r');
    s.send('{"jsonrpc":"2.0","id":99,"method":"ping"}');
    await waitFor(() => s.replies.some((r) => r.id === 99) && s.replies.filter((r) => 'error' in r || r.id === 17).length >= cases.length, 20_000);
    for (const [line, id, code] of cases) {
      const reply = code === 0 ? s.replies.find((r) => r.id === id) : s.replies.find((r) => r.error?.code === code && r.id === id);
      expect(reply, line.slice(0, 80)).toBeDefined();
      expect(JSON.stringify(reply).length, 'nothing big is echoed').toBeLessThan(2000);
    }
    expect(s.replies.find((r) => r.id === 17).result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/at most 50 ids/) }] });
    expect(s.replies.find((r) => r.id === 18).error.message).toBe('Invalid params: params.arguments must be an object (got null)');
    expect(s.replies.find((r) => r.id === 19).error.message).toBe('Invalid params: params.arguments must be an object (got a string)');
    // Only the three lines without a usable id were answered with id null: the blank lines got nothing.
    expect(s.replies.filter((r) => r.id === null)).toHaveLength(3);
    expect(s.replies.find((r) => r.id === 99)).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
    expect(s.stderr()).toMatch(/refused a message: Invalid Request: message longer than/);
    const exited = new Promise((r) => s.child.on('close', r));
    s.child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});

// zod's plain-object check reads `value.constructor.prototype`: `"constructor": null` in a tool's arguments
// threw out of the line check and ended the server, and `"constructor": 1` was refused as "must be an object
// (got an object)". An argument a tool does not list is ignored (docs/mcp.md), whatever its name.
describe('tsm serve on members named like Object.prototype', () => {
  it('ignores constructor and __proto__ members anywhere in a request, and stays up', async () => {
    const s = serveRaw();
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const lines = [
      '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"search","arguments":{"query":"sync","constructor":null}}}',
      '{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"search","arguments":{"query":"sync","constructor":1}}}',
      '{"jsonrpc":"2.0","id":23,"method":"tools/call","params":{"name":"search","arguments":{"query":"sync","constructor":{"prototype":null}}}}',
      '{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"name":"search","constructor":null,"arguments":{"query":"sync","__proto__":{"limit":1}}}}',
      '{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"search","_meta":{"constructor":null},"arguments":{"query":"sync","toString":1,"hasOwnProperty":null}}}',
      '{"jsonrpc":"2.0","id":26,"constructor":null,"method":"tools/call","params":{"name":"hook_context","arguments":{"prompt":"sync engine","constructor":null}}}',
    ];
    for (const line of lines) s.send(line);
    s.send('{"jsonrpc":"2.0","id":99,"method":"ping"}');
    await waitFor(() => [21, 22, 23, 24, 25, 26, 99].every((id) => s.replies.some((r) => r.id === id)), 20_000);
    const sync = JSON.parse(s.replies.find((r) => r.id === 21).result.content[0].text);
    expect(sync.results.length).toBeGreaterThan(0);
    for (const id of [22, 23, 24, 25]) {
      const r = s.replies.find((x) => x.id === id);
      expect(r.error, String(id)).toBeUndefined();
      expect(r.result.isError, String(id)).toBeFalsy();
      expect(JSON.parse(r.result.content[0].text).results, String(id)).toEqual(sync.results);
    }
    expect(s.replies.find((r) => r.id === 26).result.isError).toBeFalsy();
    expect(s.replies.find((r) => r.id === 99)).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
    const exited = new Promise((r) => s.child.on('close', r));
    s.child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});

// The SDK looks a tool up in a plain object: a tools/call named `constructor` found Object's own member and was
// answered "Tool constructor disabled", as if tsm had such a tool switched off.
describe('tsm serve on a tool named like Object.prototype', () => {
  it('answers that no tool has the name, and stays up', async () => {
    const s = serveRaw();
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    names.forEach((name, i) => s.send(JSON.stringify({ jsonrpc: '2.0', id: 31 + i, method: 'tools/call', params: { name, arguments: {} } })));
    // A name of a million characters: the SDK's "Tool … not found" quoted it whole, a 1,000,039-character answer.
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 35, method: 'tools/call', params: { name: 'x'.repeat(1_000_000), arguments: {} } }));
    s.send('{"jsonrpc":"2.0","id":99,"method":"ping"}');
    await waitFor(() => [31, 32, 33, 34, 35, 99].every((id) => s.replies.some((r) => r.id === id)), 20_000);
    names.forEach((name, i) => {
      expect(s.replies.find((r) => r.id === 31 + i).error, name).toEqual({ code: -32602, message: `Invalid params: params.name: no tool is named "${name}" (tools/list names the tools)` });
    });
    expect(s.replies.find((r) => r.id === 35).error).toEqual({
      code: -32602,
      message: 'Invalid params: params.name is 1000000 characters long; no tool name has more than 128 (tools/list names the tools)',
    });
    expect(s.replies.find((r) => r.id === 99)).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
    const exited = new Promise((r) => s.child.on('close', r));
    s.child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});

// A notification sent with an id is a request of a method no server has: the SDK answered `-32601 Method not
// found` for notifications/initialized, a method the server knows, and a cancellation so sent cancelled nothing.
describe('tsm serve on a notification sent with an id', () => {
  it('says it is a notification and to send it without an id, and stays up', async () => {
    const s = serveRaw();
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    s.send('{"jsonrpc":"2.0","id":41,"method":"notifications/initialized"}');
    s.send('{"jsonrpc":"2.0","id":"c","method":"notifications/cancelled","params":{"requestId":1}}');
    s.send('{"jsonrpc":"2.0","id":43,"method":"no/such/method"}');
    s.send('{"jsonrpc":"2.0","id":99,"method":"ping"}');
    await waitFor(() => [41, 'c', 43, 99].every((id) => s.replies.some((r) => r.id === id)), 20_000);
    expect(s.replies.find((r) => r.id === 41).error).toEqual({ code: -32601, message: 'Method not found: notifications/initialized is a notification, which has no id: send it without one' });
    expect(s.replies.find((r) => r.id === 'c').error).toEqual({ code: -32601, message: 'Method not found: notifications/cancelled is a notification, which has no id: send it without one' });
    expect(s.replies.find((r) => r.id === 43).error).toEqual({ code: -32601, message: 'Method not found' });
    expect(s.replies.find((r) => r.id === 99)).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
    const exited = new Promise((r) => s.child.on('close', r));
    s.child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});

// A client that closes its end of stderr (or a log file on a full disk) made the first stderr line, a refused
// message's, an unhandled stream error: the server exited 1, the requests after it unanswered.
describe('tsm serve with a stderr nobody reads', () => {
  it('drops its stderr lines, answers on and exits 0', async () => {
    const s = serveRaw();
    s.child.stderr.destroy(); // its writes to stderr now fail with EPIPE
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    await waitFor(() => s.replies.some((r) => r.id === 1), 20_000);
    s.send('garbage'); // refused: a line on stderr
    await waitFor(() => s.replies.some((r) => r.id === null), 20_000);
    await new Promise((r) => setTimeout(r, 200)); // the write's EPIPE arrives after it
    s.send('{"jsonrpc":"2.0","id":99,"method":"ping"}');
    const exited = new Promise((r) => s.child.on('close', r));
    await waitFor(() => s.replies.some((r) => r.id === 99) || s.child.exitCode !== null, 20_000);
    expect(s.replies.find((r) => r.id === 99)).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
    s.child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});

describe('MCP search through the SDK client', () => {
  let client: Client;
  beforeAll(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
    client = new Client({ name: 'tsm-hardening', version: '1.0.0' });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => client?.close());

  it('searches the first 10,000 characters of a long query and echoes 200', async () => {
    const query = `dataview ${'x'.repeat(1_000_000)}`;
    const r = await ok(client, 'search', { query });
    expect(Array.from(r.query as string).length).toBe(200);
    expect(r.query.endsWith('…')).toBe(true);
    expect(r.query).toBe(queryEcho(query)); // the echo rule of tsm search and the prompt hook
    expect(r.note).toMatch(/1000009 characters; its first 10000 were searched/);
    const short = await ok(client, 'search', { query: 'dataview' });
    expect(short.query).toBe('dataview');
    expect(short.note).toBeUndefined();
  }, 30_000);

  it('quotes at most 40 characters of a refused enum value', async () => {
    // Before: zod's "received 'xxx…'" quoted all of it, and the SDK sent back 1,000,166 characters.
    for (const [tool, args] of [
      ['search', { query: 'dataview', type: 'x'.repeat(1_000_000) }],
      ['recent_context', { type: 'x'.repeat(1_000_000) }],
      ['retrieve_memory', { query: 'dataview', detail: 'x'.repeat(1_000_000) }],
    ] as const) {
      const message = await fails(client, tool, args);
      expect(message, tool).toMatch(new RegExp(`Invalid enum value\\. Expected '.*', received '${'x'.repeat(39)}…' at (type|detail)$`));
      expect(message.length, tool).toBeLessThan(300);
    }
    const listed = (await client.listTools()).tools.find((t) => t.name === 'search')!.inputSchema.properties as any;
    expect(listed.type.enum).toEqual(['daily', 'knowledge', 'session']);
  }, 30_000);

  it('refuses a 10 MB request with an error and keeps serving', async () => {
    await expect(client.callTool({ name: 'search', arguments: { query: 'y'.repeat(10 * 1024 * 1024) } })).rejects.toThrow(/-32600|longer than/);
    expect((await ok(client, 'search', { query: 'dataview' })).results.length).toBeGreaterThan(0);
  }, 30_000);

  it('reads the query language and the tag parameter, nested', async () => {
    const phrase = await ok(client, 'search', { query: '"sync engine"' });
    expect(phrase.results.map((x: any) => x.path)).toEqual(['knowledge/sync.md']);
    const excluded = await ok(client, 'search', { query: 'sync engine -dataview' });
    expect(excluded.results.map((x: any) => x.path)).toEqual(['knowledge/engines.md']);
    const tagged = await ok(client, 'search', { query: 'notes sync engine', tag: 'project' });
    expect(tagged.results.map((x: any) => x.path).sort()).toEqual(['knowledge/dataview.md', 'knowledge/engines.md']);
    const both = await ok(client, 'search', { query: 'notes sync engine tag:project/alpha', tag: 'project' });
    expect(both.results.map((x: any) => x.path)).toEqual(['knowledge/dataview.md']);
    const japanese = await ok(client, 'search', { query: '"消費電力"' });
    expect(japanese.results.map((x: any) => x.path)).toEqual(['knowledge/dataview.md']);
  });

  it('confines path: in the query to the vault: a path out of it, like a type: that is no note type, is words, said in note', async () => {
    const out = await ok(client, 'search', { query: 'plugin path:../../etc' });
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.note).toBe('path:../../etc is not a folder of the vault (give one relative to the vault root, like knowledge/): searched as words');
    expect(await fails(client, 'search', { query: 'plugin', path: '../../etc' })).toMatch(/path is outside the vault/);
    const inside = await ok(client, 'search', { query: `plugin path:${vault.dir}/knowledge/` });
    expect(inside.results.map((x: any) => x.path)).toEqual(['knowledge/dataview.md']);
    // `type:module` in a pasted prompt used to fail the call with "type takes daily, knowledge, session"
    const typed = await ok(client, 'search', { query: 'package.json type:module plugin build' });
    expect(typed.results.length).toBeGreaterThan(0);
    expect(typed.note).toBe('type:module is not a note type (daily, knowledge, session): searched as words');
  });

  it('says in note which filter of the query left no match, and reads a pasted prompt as plain text', async () => {
    const r = await ok(client, 'search', { query: 'plugin status:404' });
    expect(r.results).toEqual([]);
    expect(r.note).toMatch(/^status:404 \(read from the query as a filter\) left no match; without it, \d+ results? \(to search it as words/);
    const prompt = `${'Which plugin lists my notes, and how do I configure it with a query block? '.repeat(3)}-dataview type:daily`;
    const pasted = await ok(client, 'search', { query: prompt });
    expect(pasted.results.map((x: any) => x.path)).toContain('knowledge/dataview.md');
    expect(pasted.note).toMatch(/^the query was read as plain text: its \d+ characters of words besides operators/);
  });

  it('says did_you_mean when nothing matches', async () => {
    const r = await ok(client, 'search', { query: 'dataveiw' });
    expect(r.results).toEqual([]);
    expect(r.did_you_mean).toBe('dataview');
    expect((await ok(client, 'search', { query: 'dataview' })).did_you_mean).toBeUndefined();
  });

  it('says in note that a query of filters or exclusions only has nothing to rank by', async () => {
    for (const query of ['type:knowledge', '-dataview']) {
      const r = await ok(client, 'search', { query });
      expect(r.results).toEqual([]);
      expect(r.note).toBe('the query has nothing to rank by (filters and exclusions only): add a word to search for');
    }
    expect((await ok(client, 'search', { query: 'plugin type:knowledge' })).note).toBeUndefined();
  });

  it('says dates_ignored when a date read from the query left nothing, and searches every date', async () => {
    // Nothing in the vault is dated ten years back: the words were incidental, the search finds the plugin notes.
    const r = await ok(client, 'search', { query: 'dataview 10 years ago' });
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.dates_ignored.after).toMatch(/^\d{4}-01-01$/);
    expect((await ok(client, 'search', { query: 'dataview' })).dates_ignored).toBeUndefined();
    // A date given as a parameter stays a filter.
    expect((await ok(client, 'search', { query: 'dataview', after: '2100' })).results).toEqual([]);
    expect(r.dates_first).toBeUndefined();
  });

  it('refuses huge string arguments of every tool and never echoes more than a short prefix', async () => {
    const long = 'q'.repeat(50_000);
    expect(await fails(client, 'file_history', { file_path: long })).toBe('file_path is 50000 characters long; at most 10000 are accepted');
    expect(await fails(client, 'related', { path: long })).toMatch(/^path is 50000 characters long/);
    expect(await fails(client, 'session_trace', { session_id: long })).toMatch(/^session_id is 50000 characters long/);
    // under the cap, an error quoting the argument is cut to 1,000 characters
    const quoted = await fails(client, 'related', { path: `../${'p'.repeat(9_000)}` });
    expect(quoted).toMatch(/outside the vault/);
    expect(Array.from(quoted).length).toBeLessThanOrEqual(1000);
    const memory = await ok(client, 'retrieve_memory', { query: `zzqqxx ${long}` });
    expect(memory).toMatch(/^No results found for "zzqqxx q+…"\.$/);
    expect(memory.length).toBeLessThan(300);
  });

  it('gives retrieve_memory the same query language and did-you-mean', async () => {
    const md = await ok(client, 'retrieve_memory', { query: '"sync engine"', detail: 'none' });
    expect(md.match(/^## Result /gm)).toHaveLength(1); // free text would find engines.md too
    expect(md).toContain('Sync engines');
    expect(await ok(client, 'retrieve_memory', { query: 'dataveiw' })).toBe('No results found for "dataveiw". Did you mean: dataview?');
  });

  it('answers wrong argument types as tool errors', async () => {
    for (const args of [{ query: 5 }, { query: ['a'] }, { query: 'x', limit: 'many' }, { query: 'x', tag: { a: 1 } }]) {
      const r = await call(client, 'search', args as Record<string, unknown>);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/Input validation error/);
    }
  });
});

describe('many answers pending at once', () => {
  // 120 notes that all match: a search with limit 100 answers about 30 kB, more than stdout's 16 kB buffer.
  const many = useIndexedVault(
    Object.fromEntries([
      ['.tsm/.keep', ''],
      ...Array.from({ length: 120 }, (_, i) => [`knowledge/radio-${i}.md`, `# Radio ${i}\n\nThe antenna of board ${i} and its LoRa module, measured on bench ${i}.\n`]),
    ]),
  );

  it('answers 50 concurrent searches in full with nothing on stderr', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', many.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const client = new Client({ name: 'tsm-pending', version: '1.0.0' });
    await client.connect(transport);
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => ok(client, 'search', { query: 'antenna LoRa', limit: 100 })));
      for (const a of answers) expect(a.results).toHaveLength(100);
      // A 'drain' listener per pending answer passed Node's limit of 10: a MaxListenersExceededWarning.
      expect(stderr).toBe('');
    } finally {
      await client.close();
    }
  }, 60_000);
});
