import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadConfig } from '../../src/vault/config.js';
import { call, fails, ok } from './client.js';
import { connect, serveTestVault, type Served } from './setup.js';

const TOOL_NAMES = ['search', 'get_sections', 'read_note', 'timeline', 'recent_context', 'session_trace', 'file_history', 'related', 'retrieve_memory', 'hook_context'];

describe('tsm MCP server: tool list', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveTestVault();
  });
  afterAll(async () => s.close());

  it('lists the ten tools, read-only, each described for a model', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.description?.length ?? 0).toBeGreaterThan(150);
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('gives each tool the parameters docs/mcp.md lists', async () => {
    const { tools } = await s.client.listTools();
    const params = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {}).sort()]));
    expect(params).toEqual({
      search: ['after', 'before', 'limit', 'offset', 'path', 'query', 'status', 'tag', 'type'],
      get_sections: ['ids'],
      read_note: ['from_line', 'lines', 'path', 'version'],
      timeline: ['after', 'anchor', 'before'],
      recent_context: ['limit', 'type'],
      session_trace: ['from', 'session_id'],
      file_history: ['file_path', 'limit'],
      related: ['path'],
      retrieve_memory: ['detail', 'limit', 'query'],
      hook_context: ['cwd', 'hook_event_name', 'prompt', 'session_id', 'source'],
    });
    const required = Object.fromEntries(tools.map((t) => [t.name, [...(t.inputSchema.required ?? [])].sort()]));
    expect(required.search).toEqual(['query']);
    expect(required.get_sections).toEqual(['ids']);
    expect(required.timeline).toEqual(['anchor']);
  });

  it('accepts fields a tool does not declare, ignores them, and its listed schema says so', async () => {
    const { tools } = await s.client.listTools();
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(true);
    const plain = await ok(s.client, 'read_note', { path: 'knowledge/lora.md' });
    // Ignored whatever they hold: a string past the 10,000-character argument limit is not refused.
    expect(await ok(s.client, 'read_note', { path: 'knowledge/lora.md', extra: 1, client_meta: 'x'.repeat(50_000) })).toEqual(plain);
    expect(await ok(s.client, 'search', { query: 'antenna', extra: { nested: true } })).toEqual(await ok(s.client, 'search', { query: 'antenna' }));
  });

  it('tells the model how the tools chain, in the server instructions', async () => {
    const text = s.client.getInstructions() ?? '';
    expect(text).toMatch(/search.*timeline.*get_sections.*read_note/s);
  });

  it('answers an unknown tool and arguments of the wrong type with error results, and keeps serving', async () => {
    expect(await fails(s.client, 'no_such_tool', {})).toMatch(/no_such_tool/);
    expect(await fails(s.client, 'search', { query: 42 })).toMatch(/query/);
    expect(await fails(s.client, 'search', {})).toMatch(/query/);
    expect(await fails(s.client, 'search', { query: 'x', type: 'bogus' })).toMatch(/type/);
    expect(await fails(s.client, 'timeline', { anchor: 'twelve' })).toMatch(/anchor/);
    const again = await call(s.client, 'search', { query: 'antenna' });
    expect(again.isError).toBe(false);
  });
});

describe('tsm MCP server without an index', () => {
  it('starts, and every tool says to run `tsm index`', async () => {
    const s = await serveTestVault();
    try {
      const cfg = { ...loadConfig({ vaultFlag: s.fx.vault, env: {} }), db: join(s.fx.vault, '.tsm', 'missing.db') };
      const { client, close } = await connect(cfg);
      try {
        for (const [name, args] of [
          ['search', { query: 'antenna' }],
          ['get_sections', { ids: [1] }],
          ['recent_context', {}],
          ['retrieve_memory', { query: 'antenna' }],
        ] as const) {
          expect(await fails(client, name, args)).toMatch(/tsm index/);
        }
      } finally {
        await close();
      }
    } finally {
      await s.close();
    }
  });
});

describe('callTool', () => {
  it('turns a bug into an error result and logs its stack to the log, not the result', async () => {
    const { callTool } = await import('../../src/mcp/server.js');
    const { createContext } = await import('../../src/mcp/context.js');
    const logs: string[] = [];
    const broken = {
      name: 'broken',
      title: 'Broken',
      description: 'always fails',
      inputSchema: {},
      run: () => {
        throw new TypeError('cannot read x of undefined');
      },
    };
    const ctx = createContext(loadConfig({ vaultFlag: process.cwd(), env: {} }));
    const r = await callTool(broken, {}, ctx, (l) => logs.push(l));
    expect(r).toEqual({ content: [{ type: 'text', text: 'internal error: cannot read x of undefined' }], isError: true });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^broken: TypeError: cannot read x of undefined\n\s+at /);
  });

  it("answers a fail-open tool's failure with its failOpen answer, given the message (a bug's stack still logged)", async () => {
    const { callTool } = await import('../../src/mcp/server.js');
    const { createContext } = await import('../../src/mcp/context.js');
    const { ToolError } = await import('../../src/mcp/errors.js');
    const ctx = createContext(loadConfig({ vaultFlag: process.cwd(), env: {} }));
    const logs: string[] = [];
    const problems: string[] = [];
    const tool = (fail: () => never) => ({
      name: 'open',
      title: 'Open',
      description: '',
      inputSchema: {},
      run: fail,
      failOpen: (problem: string) => {
        problems.push(problem);
        return '{}';
      },
    });
    const bad = tool(() => {
      throw new ToolError('cwd is wrong');
    });
    expect(await callTool(bad, {}, ctx, (l) => logs.push(l))).toEqual({ content: [{ type: 'text', text: '{}' }] });
    const bug = tool(() => {
      throw new TypeError('x is undefined');
    });
    expect(await callTool(bug, {}, ctx, (l) => logs.push(l))).toEqual({ content: [{ type: 'text', text: '{}' }] });
    expect(problems).toEqual(['cwd is wrong', 'internal error: x is undefined']);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^open: TypeError: x is undefined/);
  });

  it('sends strings as they are and everything else as compact JSON', async () => {
    const { callTool } = await import('../../src/mcp/server.js');
    const { createContext } = await import('../../src/mcp/context.js');
    const ctx = createContext(loadConfig({ vaultFlag: process.cwd(), env: {} }));
    const tool = (out: unknown) => ({ name: 't', title: 't', description: '', inputSchema: {}, run: () => out });
    expect(await callTool(tool('## md'), {}, ctx)).toEqual({ content: [{ type: 'text', text: '## md' }] });
    expect(await callTool(tool({ a: [1, null] }), {}, ctx)).toEqual({ content: [{ type: 'text', text: '{"a":[1,null]}' }] });
    const { WithNotice } = await import('../../src/mcp/tool.js');
    expect(await callTool(tool(new WithNotice([], { not_found: [7] })), {}, ctx)).toEqual({
      content: [
        { type: 'text', text: '[]' },
        { type: 'text', text: '{"not_found":[7]}' },
      ],
    });
  });
});
