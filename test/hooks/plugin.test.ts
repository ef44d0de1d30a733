// plugin/ is a Claude Code plugin: its files must parse and say exactly what `tsm init --claude` wires.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../src/hooks/payload.js';
import { FIRST_MCP_TOOL_HOOKS, hasMcpToolHooks, isTsmHook, isTsmServer, isTsmWarmHook, pluginHooks, pluginMcp, pluginWarmHooks } from '../../src/hooks/wiring.js';
import { TOOLS } from '../../src/mcp/tools/index.js';

const PLUGIN = join(import.meta.dirname, '..', '..', 'plugin');
const readJson = (rel: string) => JSON.parse(readFileSync(join(PLUGIN, rel), 'utf8')) as Record<string, any>;

describe('plugin/', () => {
  it('has a manifest with a name, version and description', () => {
    const manifest = readJson('.claude-plugin/plugin.json');
    expect(manifest.name).toBe('tsm');
    expect(manifest.version).toBe(JSON.parse(readFileSync(join(PLUGIN, '..', 'package.json'), 'utf8')).version);
    expect(typeof manifest.description).toBe('string');
  });

  it('hooks/hooks.json runs the command line `tsm hook` for every event (no exec-form args), as the wiring module says', () => {
    const hooks = readJson('hooks/hooks.json');
    expect(hooks).toEqual(pluginHooks());
    for (const event of HOOK_EVENTS) {
      const handlers = hooks.hooks[event].flatMap((g: { hooks: unknown[] }) => g.hooks);
      expect(handlers).toHaveLength(1);
      expect(isTsmHook(handlers[0])).toBe(true);
      // Claude Code before exec form (2.0.76) ignores "args" and would run bare `tsm`.
      expect(handlers[0]).toEqual({ type: 'command', command: 'tsm hook', timeout: expect.any(Number) });
      expect(handlers[0].timeout).toBeGreaterThan(0);
    }
  });

  it('gives SessionEnd a timeout within what Claude Code allows it, and the prompt hook more than its own deadline', () => {
    const hooks = readJson('hooks/hooks.json').hooks;
    expect(hooks.SessionEnd[0].hooks[0].timeout).toBeLessThanOrEqual(5);
    expect(hooks.UserPromptSubmit[0].hooks[0].timeout * 1000).toBeGreaterThan(1500);
  });

  it('has a README that says how to install it (shown when the plugin folder stands alone)', () => {
    const readme = readFileSync(join(PLUGIN, 'README.md'), 'utf8');
    expect(readme).toContain('claude plugin install tsm@the-space-memory');
    expect(readme).toContain('npm install -g the-space-memory');
  });

  it('is listed by the marketplace manifest at the repository root, at the package version', () => {
    const market = JSON.parse(readFileSync(join(PLUGIN, '..', '.claude-plugin', 'marketplace.json'), 'utf8'));
    const pkg = JSON.parse(readFileSync(join(PLUGIN, '..', 'package.json'), 'utf8'));
    expect(market.name).toBe('the-space-memory');
    expect(market.plugins).toEqual([
      expect.objectContaining({ name: 'tsm', source: './plugin', version: pkg.version }),
      expect.objectContaining({ name: 'tsm-warm', source: './plugin-warm', version: pkg.version }),
    ]);
    expect(pkg.files).toEqual(expect.arrayContaining(['plugin', 'plugin-warm', '.claude-plugin']));
    expect(pkg.name).toBe('the-space-memory');
    expect(pkg.bin).toEqual({ tsm: 'bin/tsm' });
  });

  it('.mcp.json runs `tsm serve`', () => {
    const mcp = readJson('.mcp.json');
    expect(mcp).toEqual(pluginMcp());
    expect(isTsmServer(mcp.mcpServers.tsm)).toBe(true);
  });
});

describe('plugin-warm/ (Claude Code 2.1.118 or later)', () => {
  const WARM = join(PLUGIN, '..', 'plugin-warm');
  const readWarm = (rel: string) => JSON.parse(readFileSync(join(WARM, rel), 'utf8')) as Record<string, any>;

  it('has its own manifest, named as its MCP server names are namespaced (plugin:tsm-warm:tsm)', () => {
    const manifest = readWarm('.claude-plugin/plugin.json');
    expect(manifest.name).toBe('tsm-warm');
    expect(manifest.version).toBe(readJson('.claude-plugin/plugin.json').version);
  });

  it("hooks/hooks.json is plugin/'s but for the prompt hook, one mcp_tool call of tsm serve's hook_context", () => {
    const hooks = readWarm('hooks/hooks.json');
    expect(hooks).toEqual(pluginWarmHooks());
    const plain = readJson('hooks/hooks.json').hooks;
    for (const event of HOOK_EVENTS) if (event !== 'UserPromptSubmit') expect(hooks.hooks[event]).toEqual(plain[event]);
    const prompt = hooks.hooks.UserPromptSubmit.flatMap((g: { hooks: unknown[] }) => g.hooks);
    // Exactly one handler: a command hook beside it would search every prompt a second time.
    expect(prompt).toHaveLength(1);
    expect(isTsmWarmHook(prompt[0])).toBe(true);
    expect(isTsmHook(prompt[0])).toBe(false);
    expect(prompt[0].server).toBe(`plugin:tsm-warm:${Object.keys(readWarm('.mcp.json').mcpServers)[0]}`);
    expect(TOOLS.map((t) => t.name)).toContain(prompt[0].tool);
    expect(prompt[0].input.prompt).toBe('${prompt}');
    expect(prompt[0].input.session_id).toBe('${session_id}');
  });

  it('.mcp.json runs `tsm serve`, as plugin/ does', () => {
    expect(readWarm('.mcp.json')).toEqual(readJson('.mcp.json'));
  });

  it('has a README that says which versions it needs and how to install it', () => {
    const readme = readFileSync(join(WARM, 'README.md'), 'utf8');
    expect(readme).toContain('claude plugin install tsm-warm@the-space-memory');
    expect(readme).toContain(FIRST_MCP_TOOL_HOOKS);
  });

  it('knows which Claude Code versions run mcp_tool hooks', () => {
    expect(['2.0.12', '2.0.76', '2.1.117', '1.9.999'].map(hasMcpToolHooks)).toEqual([false, false, false, false]);
    expect(['2.1.118', '2.1.331', '2.2.0', '3.0.0', '2.1.118 (Claude Code)'].map(hasMcpToolHooks)).toEqual([true, true, true, true, true]);
  });
});
