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

  it('hooks/hooks.json runs `tsm hook` in exec form for every event, as the wiring module says', () => {
    const hooks = readJson('hooks/hooks.json');
    expect(hooks).toEqual(pluginHooks());
    for (const event of HOOK_EVENTS) {
      const handlers = hooks.hooks[event].flatMap((g: { hooks: unknown[] }) => g.hooks);
      expect(handlers).toHaveLength(1);
      expect(isTsmHook(handlers[0])).toBe(true);
      expect(handlers[0]).toMatchObject({ type: 'command', command: 'tsm', args: ['hook'] });
      expect(handlers[0].timeout).toBeGreaterThan(0);
    }
  });

  it('gives SessionEnd a timeout within what Claude Code allows it, and the prompt hook more than its own deadline', () => {
    const hooks = readJson('hooks/hooks.json').hooks;
    expect(hooks.SessionEnd[0].hooks[0].timeout).toBeLessThanOrEqual(5);
    expect(hooks.UserPromptSubmit[0].hooks[0].timeout * 1000).toBeGreaterThan(1500);
  });

  it('.mcp.json runs `tsm serve`', () => {
    const mcp = readJson('.mcp.json');
    expect(mcp).toEqual(pluginMcp());
    expect(isTsmServer(mcp.mcpServers.tsm)).toBe(true);
  });
});
