// plugin/ is a Claude Code plugin: its files must parse and say exactly what `tsm init --claude` wires.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../src/hooks/payload.js';
import { isTsmHook, isTsmServer, pluginHooks, pluginMcp } from '../../src/hooks/wiring.js';

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
    expect(market.plugins).toEqual([expect.objectContaining({ name: 'tsm', source: './plugin', version: pkg.version })]);
    expect(pkg.name).toBe('the-space-memory');
    expect(pkg.bin).toEqual({ tsm: 'bin/tsm' });
  });

  it('.mcp.json runs `tsm serve`', () => {
    const mcp = readJson('.mcp.json');
    expect(mcp).toEqual(pluginMcp());
    expect(isTsmServer(mcp.mcpServers.tsm)).toBe(true);
  });
});
