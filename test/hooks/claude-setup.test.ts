import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkClaudeWiring, mcpPath, onPath, settingsPath, wireClaudeCode } from '../../src/hooks/claude-setup.js';
import { HOOK_EVENTS } from '../../src/hooks/payload.js';
import { handlersOf, HOOK_TIMEOUT_S, isTsmHook, isTsmServer } from '../../src/hooks/wiring.js';

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'tsm-claude-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
const write = (path: string, data: unknown) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
};

/** A PATH holding an executable `tsm`, so the doctor's PATH check passes. */
function pathWithTsm(): string {
  const bin = join(project, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'tsm'), '#!/bin/sh\n');
  chmodSync(join(bin, 'tsm'), 0o755);
  return bin;
}

describe('wireClaudeCode', () => {
  it('creates .claude/settings.json and .mcp.json with every hook in exec form', () => {
    const messages = wireClaudeCode(project, project);
    const settings = readJson(settingsPath(project));
    for (const event of HOOK_EVENTS) {
      expect(settings.hooks[event]).toEqual([{ hooks: [{ type: 'command', command: 'tsm', args: ['hook'], timeout: HOOK_TIMEOUT_S[event] }] }]);
    }
    expect(readJson(mcpPath(project))).toEqual({ mcpServers: { tsm: { command: 'tsm', args: ['serve'] } } });
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('added UserPromptSubmit, SessionStart, Stop, PreCompact, SessionEnd');
    expect(messages[1]).toContain('added MCP server "tsm"');
  });

  it('is idempotent: a second run changes no byte', () => {
    wireClaudeCode(project, project);
    const before = [readFileSync(settingsPath(project), 'utf8'), readFileSync(mcpPath(project), 'utf8')];
    const messages = wireClaudeCode(project, project);
    expect([readFileSync(settingsPath(project), 'utf8'), readFileSync(mcpPath(project), 'utf8')]).toEqual(before);
    expect(messages[0]).toContain('already in place');
    expect(messages[1]).toContain('already in place');
  });

  it('keeps other settings, other hooks and other servers', () => {
    const lint = { type: 'command', command: 'npm run lint' };
    write(settingsPath(project), {
      model: 'opus',
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        UserPromptSubmit: [{ hooks: [lint] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [lint] }],
      },
    });
    write(mcpPath(project), { mcpServers: { github: { command: 'gh-mcp', args: [] } } });
    wireClaudeCode(project, project);
    const settings = readJson(settingsPath(project));
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(settings.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [lint] }]);
    expect(settings.hooks.UserPromptSubmit[0]).toEqual({ hooks: [lint] });
    expect(handlersOf(settings, 'UserPromptSubmit').filter(isTsmHook)).toHaveLength(1);
    expect(readJson(mcpPath(project)).mcpServers.github).toEqual({ command: 'gh-mcp', args: [] });
    expect(readJson(mcpPath(project)).mcpServers.tsm).toEqual({ command: 'tsm', args: ['serve'] });
  });

  it('names the vault when it is not at or above the project', () => {
    const vault = mkdtempSync(join(tmpdir(), 'tsm-vault-'));
    try {
      wireClaudeCode(project, vault);
      const settings = readJson(settingsPath(project));
      expect(settings.hooks.Stop[0].hooks[0].args).toEqual(['hook', '--vault', vault]);
      expect(readJson(mcpPath(project)).mcpServers.tsm.args).toEqual(['serve', '--vault', vault]);
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });

  it('does not name a vault above the project (tsm hook finds it)', () => {
    const sub = join(project, 'code', 'fw');
    mkdirSync(sub, { recursive: true });
    wireClaudeCode(sub, project);
    expect(readJson(settingsPath(sub)).hooks.Stop[0].hooks[0].args).toEqual(['hook']);
  });

  it('updates its own entry in place when the vault moves, keeping what the user added to it', () => {
    wireClaudeCode(project, project);
    const settings = readJson(settingsPath(project));
    settings.hooks.Stop[0].hooks[0].statusMessage = 'saving session';
    write(settingsPath(project), settings);
    const vault = mkdtempSync(join(tmpdir(), 'tsm-vault-'));
    try {
      const messages = wireClaudeCode(project, vault);
      expect(messages[0]).toContain('updated UserPromptSubmit');
      const after = readJson(settingsPath(project));
      expect(after.hooks.Stop).toHaveLength(1);
      expect(after.hooks.Stop[0].hooks[0]).toEqual({ type: 'command', command: 'tsm', args: ['hook', '--vault', vault], timeout: 30, statusMessage: 'saving session' });
      expect(readJson(mcpPath(project)).mcpServers.tsm.args).toEqual(['serve', '--vault', vault]);
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });

  it('counts a hand-written `tsm hook` command line as wired', () => {
    write(settingsPath(project), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'TSM_VAULT=~/notes tsm hook' }] }] } });
    wireClaudeCode(project, project);
    const settings = readJson(settingsPath(project));
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'TSM_VAULT=~/notes tsm hook' }] }]);
    expect(handlersOf(settings, 'SessionEnd').filter(isTsmHook)).toHaveLength(1);
  });

  it('keeps a different server called "tsm" and says so', () => {
    write(mcpPath(project), { mcpServers: { tsm: { command: 'other-tool', args: ['x'] } } });
    const messages = wireClaudeCode(project, project);
    expect(readJson(mcpPath(project)).mcpServers).toEqual({ tsm: { command: 'other-tool', args: ['x'] } });
    expect(messages[1]).toContain('kept the existing "tsm" server');
  });

  it('accepts tsm serve registered under another name', () => {
    write(mcpPath(project), { mcpServers: { notes: { command: '/usr/local/bin/tsm', args: ['serve'] } } });
    const before = readFileSync(mcpPath(project), 'utf8');
    expect(wireClaudeCode(project, project)[1]).toContain('already in place (as "notes")');
    expect(readFileSync(mcpPath(project), 'utf8')).toBe(before);
  });

  it.each([
    ['invalid JSON', settingsPath, '{ "hooks": { '],
    ['a JSON array', settingsPath, '[]'],
    ['hooks that are not an object', settingsPath, '{"hooks": []}'],
    ['an event that is not a list', settingsPath, '{"hooks": {"Stop": {"command": "x"}}}'],
    ['invalid .mcp.json', mcpPath, '{"mcpServers": '],
    ['mcpServers that is not an object', mcpPath, '{"mcpServers": 3}'],
  ])('%s: a clear error, and neither file is touched', (_what, which, text) => {
    write(which(project), text);
    const other = which === settingsPath ? mcpPath(project) : settingsPath(project);
    expect(() => wireClaudeCode(project, project)).toThrow(/left as it is/);
    expect(readFileSync(which(project), 'utf8')).toBe(text);
    expect(existsSync(other)).toBe(false);
  });

  it('treats an empty file as an empty object', () => {
    write(settingsPath(project), '');
    wireClaudeCode(project, project);
    expect(handlersOf(readJson(settingsPath(project)), 'Stop').filter(isTsmHook)).toHaveLength(1);
  });
});

describe('checkClaudeWiring', () => {
  it('finds nothing wrong after wireClaudeCode', () => {
    wireClaudeCode(project, project);
    expect(checkClaudeWiring(project, { PATH: pathWithTsm() })).toEqual([]);
  });

  it('names the hooks that do not run tsm', () => {
    write(settingsPath(project), { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'tsm', args: ['hook'], timeout: 5 }] }] } });
    const problems = checkClaudeWiring(project, { PATH: pathWithTsm() });
    const hooks = problems.find((p) => p.message.includes('do not run tsm'));
    expect(hooks?.message).toContain('SessionStart, Stop, PreCompact, SessionEnd');
    expect(hooks?.message).not.toContain('UserPromptSubmit');
    expect(hooks?.fix).toContain('tsm init --claude');
    expect(problems.some((p) => p.message.includes('no `tsm serve`'))).toBe(true);
  });

  it('accepts hooks wired in settings.local.json', () => {
    wireClaudeCode(project, project);
    const settings = readFileSync(settingsPath(project), 'utf8');
    rmSync(settingsPath(project));
    write(join(project, '.claude', 'settings.local.json'), settings);
    expect(checkClaudeWiring(project, { PATH: pathWithTsm() })).toEqual([]);
  });

  it('reports an invalid settings file as an error', () => {
    write(settingsPath(project), '{oops');
    const problems = checkClaudeWiring(project, { PATH: pathWithTsm() });
    expect(problems.find((p) => p.severity === 'error')?.message).toMatch(/not valid JSON/);
  });

  it('reports `tsm` missing from PATH', () => {
    wireClaudeCode(project, project);
    const problems = checkClaudeWiring(project, { PATH: join(project, 'empty') });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('not on PATH') });
  });

  it('warns about a hook timeout too short for tsm', () => {
    wireClaudeCode(project, project);
    const settings = readJson(settingsPath(project));
    settings.hooks.UserPromptSubmit[0].hooks[0].timeout = 1;
    write(settingsPath(project), settings);
    const problems = checkClaudeWiring(project, { PATH: pathWithTsm() });
    expect(problems.map((p) => p.message)).toEqual([expect.stringContaining("UserPromptSubmit hook's timeout is 1 s")]);
  });
});

describe('wiring predicates', () => {
  it.each([
    [{ type: 'command', command: 'tsm', args: ['hook'] }, true],
    [{ type: 'command', command: '/usr/local/bin/tsm', args: ['hook', '--vault', '/n'] }, true],
    [{ type: 'command', command: 'tsm hook' }, true],
    [{ type: 'command', command: 'npx tsm hook SessionEnd' }, true],
    [{ type: 'command', command: 'tsm', args: ['serve'] }, false],
    [{ type: 'command', command: 'tsmx hook' }, false],
    [{ type: 'command', command: 'echo tsm' }, false],
    ['tsm hook', false],
    [null, false],
  ])('isTsmHook(%j) = %s', (h, want) => {
    expect(isTsmHook(h)).toBe(want);
  });

  it.each([
    [{ command: 'tsm', args: ['serve'] }, true],
    [{ command: 'tsm serve --vault /n' }, true],
    [{ command: 'tsm', args: ['hook'] }, false],
    [{ command: 'other' }, false],
  ])('isTsmServer(%j) = %s', (s, want) => {
    expect(isTsmServer(s)).toBe(want);
  });

  it('onPath finds executables only', () => {
    const bin = pathWithTsm();
    writeFileSync(join(bin, 'plain'), 'x');
    expect(onPath('tsm', { PATH: bin })).toBe(true);
    expect(onPath('nope', { PATH: bin })).toBe(false);
    expect(onPath('tsm', {})).toBe(false);
  });
});
