// docs/mcp.md's table of tools against what the BUILT `tsm serve` lists to a real MCP client: the same tools,
// each with the same parameters, required where the page writes one bare (no `?`, no `= default`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, it } from 'vitest';
import { cleanEnv, ROOT, TSM } from '../helpers/cli.js';

interface Documented {
  params: string[];
  required: string[];
}

/** The rows of the table under "## The tools": `| \`name\` | parameters | returns |`. */
function documentedTools(): Map<string, Documented> {
  const page = readFileSync(join(ROOT, 'docs/mcp.md'), 'utf8');
  const section = page.slice(page.indexOf('## The tools'), page.indexOf('\nDetails:'));
  const tools = new Map<string, Documented>();
  for (const row of section.split('\n')) {
    const m = /^\| `([a-z_]+)` \| (.*?) \| /.exec(row);
    if (!m) continue;
    let cell = m[2];
    // Parenthesised remarks quote values, not parameters: "(nested: `project` matches `project/alpha`)".
    for (let prev = ''; prev !== cell; ) [prev, cell] = [cell, cell.replace(/\([^()]*\)/g, '')];
    const allOptional = /\(all strings, all optional\)/.test(m[2]);
    const params: string[] = [];
    const required: string[] = [];
    for (const p of cell.matchAll(/`([a-z_]+)(\?)?`( =)?/g)) {
      params.push(p[1]);
      if (!p[2] && !p[3] && !allOptional) required.push(p[1]);
    }
    tools.set(m[1], { params: params.sort(), required: required.sort() });
  }
  return tools;
}

it('docs/mcp.md lists the tools `tsm serve` lists, with their parameters', { timeout: 60_000 }, async () => {
  const documented = documentedTools();
  expect(documented.size).toBeGreaterThan(5); // the table was found

  const vault = mkdtempSync(join(tmpdir(), 'tsm-mcp-docs-'));
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault], env, stderr: 'pipe' });
  const client = new Client({ name: 'tsm-docs', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const served = new Map(
      tools.map((t) => {
        const schema = t.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
        return [t.name, { params: Object.keys(schema.properties ?? {}).sort(), required: [...(schema.required ?? [])].sort() }];
      }),
    );
    expect([...documented.keys()].sort()).toEqual([...served.keys()].sort());
    for (const [name, doc] of documented) expect(doc, name).toEqual(served.get(name));
  } finally {
    await client.close();
    rmSync(vault, { recursive: true, force: true });
  }
});
