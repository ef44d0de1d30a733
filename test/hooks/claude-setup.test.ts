import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isExplained } from '../../src/core/errors.js';
import { checkClaudeWiring, onPath, promptHookLine, shellWords, wiredVault } from '../../src/hooks/claude-check.js';
import { claudeConfigPath, localSettingsPath, mcpPath, settingsPath } from '../../src/hooks/claude-settings.js';
import { wireClaudeCode as wire } from '../../src/hooks/claude-setup.js';
import { HOOK_EVENTS } from '../../src/hooks/payload.js';
import { handlersOf, HOOK_TIMEOUT_S, isTsmHook, isTsmServer, isTsmWarmHook, warmPromptHook } from '../../src/hooks/wiring.js';
import { shellQuote } from '../../src/text/shell-quote.js';

let project: string;
/** Claude Code's config folder for the test (CLAUDE_CONFIG_DIR): never the developer's own ~/.claude.json. */
let configDir: string;
beforeEach(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'tsm-claude-')));
  configDir = join(project, 'claude-config');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const env = () => ({ CLAUDE_CONFIG_DIR: configDir });
/** The shared scope: .claude/settings.json and .mcp.json, the files a team commits. */
const wireClaudeCode = (dir: string, vault: string) => wire(dir, vault, { shared: true, env: env() });
const wireLocal = (dir: string, vault: string) => wire(dir, vault, { env: env() });

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

describe('wireClaudeCode, local scope (the default)', () => {
  it('writes hooks to .claude/settings.local.json and the MCP server to Claude Code\'s config, for this project only', () => {
    const vault = join(project, 'elsewhere', 'notes');
    mkdirSync(vault, { recursive: true });
    const sub = join(project, 'code');
    mkdirSync(sub);
    const messages = wireLocal(sub, vault);
    const settings = readJson(localSettingsPath(sub));
    for (const event of HOOK_EVENTS) {
      expect(settings.hooks[event]).toEqual([{ hooks: [{ type: 'command', command: `tsm hook --vault ${vault}`, timeout: HOOK_TIMEOUT_S[event] }] }]);
    }
    const config = readJson(join(configDir, '.claude.json'));
    // The entry `claude mcp add --scope local tsm -- tsm serve --vault …` writes (checked with 2.0.76 and 2.1.331).
    expect(config.projects[sub].mcpServers).toEqual({ tsm: { type: 'stdio', command: 'tsm', args: ['serve', '--vault', vault], env: {} } });
    expect(existsSync(settingsPath(sub))).toBe(false);
    expect(existsSync(mcpPath(sub))).toBe(false);
    expect(messages[0]).toContain('settings.local.json: tsm hooks added UserPromptSubmit');
    expect(messages[1]).toContain(`(project ${sub}): added MCP server "tsm"`);
  });

  it("keeps everything else in Claude Code's config, and keeps it private (0600)", () => {
    const other = { mcpServers: { gh: { type: 'stdio', command: 'gh-mcp', args: [] } }, hasTrustDialogAccepted: true };
    write(join(configDir, '.claude.json'), { userID: 'u1', numStartups: 7, projects: { '/some/other': { allowedTools: ['Bash'] }, [project]: other } });
    chmodSync(join(configDir, '.claude.json'), 0o600);
    wireLocal(project, project);
    const config = readJson(join(configDir, '.claude.json'));
    expect(config.userID).toBe('u1');
    expect(config.numStartups).toBe(7);
    expect(config.projects['/some/other']).toEqual({ allowedTools: ['Bash'] });
    expect(config.projects[project].hasTrustDialogAccepted).toBe(true);
    expect(config.projects[project].mcpServers.gh).toEqual(other.mcpServers.gh);
    expect(config.projects[project].mcpServers.tsm).toMatchObject({ command: 'tsm', args: ['serve'] });
    expect(statSync(join(configDir, '.claude.json')).mode & 0o777).toBe(0o600);
  });

  it('creates Claude Code\'s config private when there is none yet', () => {
    wireLocal(project, project);
    expect(statSync(join(configDir, '.claude.json')).mode & 0o777).toBe(0o600);
  });

  it('is idempotent', () => {
    wireLocal(project, project);
    const before = [readFileSync(localSettingsPath(project), 'utf8'), readFileSync(join(configDir, '.claude.json'), 'utf8')];
    const messages = wireLocal(project, project);
    expect([readFileSync(localSettingsPath(project), 'utf8'), readFileSync(join(configDir, '.claude.json'), 'utf8')]).toEqual(before);
    expect(messages.slice(0, 2).every((m) => m.includes('already in place'))).toBe(true);
  });

  it('says so when the shared settings run tsm too (each hook would run twice), without touching them', () => {
    wireClaudeCode(project, project);
    const shared = readFileSync(settingsPath(project), 'utf8');
    const messages = wireLocal(project, project);
    expect(messages.at(-1)).toMatch(/settings\.json runs tsm hooks too, so each would run twice/);
    expect(readFileSync(settingsPath(project), 'utf8')).toBe(shared);
  });

  it('says when git would commit the new settings.local.json (it does not edit .gitignore itself)', () => {
    expect(wireLocal(project, project).some((m) => m.includes('not ignored by git'))).toBe(false); // not a repository
    const repo = join(project, 'repo');
    mkdirSync(repo);
    expect(spawnSync('git', ['init', '-q', repo]).status).toBe(0);
    expect(wireLocal(repo, project).at(-1)).toMatch(/settings\.local\.json is not ignored by git: add `\.claude\/settings\.local\.json` to \.gitignore/);
    expect(existsSync(join(repo, '.gitignore'))).toBe(false);
    const ignored = join(project, 'ignored');
    mkdirSync(ignored);
    spawnSync('git', ['init', '-q', ignored]);
    writeFileSync(join(ignored, '.gitignore'), '.claude/settings.local.json\n');
    expect(wireLocal(ignored, project).some((m) => m.includes('not ignored by git'))).toBe(false);
  });

  // Dotfile managers (stow, chezmoi's symlink mode, a shared team folder) keep these files as symlinks: a
  // rename over the link replaced it with a plain file, and the file it pointed to never got the wiring.
  it('writes through a symlinked settings file and Claude Code config, keeping the links', () => {
    const dotfiles = join(project, 'dotfiles');
    write(join(dotfiles, 'settings.local.json'), { permissions: { allow: ['Bash(ls)'] } });
    write(join(dotfiles, 'claude.json'), { numStartups: 3 });
    chmodSync(join(dotfiles, 'claude.json'), 0o600);
    mkdirSync(join(project, '.claude'));
    mkdirSync(configDir);
    symlinkSync(join(dotfiles, 'settings.local.json'), localSettingsPath(project));
    symlinkSync('../dotfiles/claude.json', join(configDir, '.claude.json'));
    wireLocal(project, project);
    expect(lstatSync(localSettingsPath(project)).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(configDir, '.claude.json')).isSymbolicLink()).toBe(true);
    const settings = readJson(join(dotfiles, 'settings.local.json'));
    expect(settings.permissions).toEqual({ allow: ['Bash(ls)'] });
    expect(Object.keys(settings.hooks)).toEqual([...HOOK_EVENTS]);
    const config = readJson(join(dotfiles, 'claude.json'));
    expect(config.numStartups).toBe(3);
    expect(config.projects[project].mcpServers.tsm).toMatchObject({ command: 'tsm', args: ['serve'] });
    expect(statSync(join(dotfiles, 'claude.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dotfiles).sort()).toEqual(['claude.json', 'settings.local.json']);
  });

  it('a Claude Code config it cannot write: one line naming the file and the cause, not the temp file cleanup', () => {
    // Measured: `tsm init --claude` as a user whose home it may not enter (HOME=/root as uid 65534) died
    // with a stack trace, `EACCES: permission denied, lstat '/root/..claude.json.<pid>.tmp'`: the removal of
    // the temp file that was never made threw over the error that said why. A config folder that is a file
    // fails the same way for any user (ENOTDIR on the lstat), so it stands in here.
    writeFileSync(configDir, 'not a folder');
    let thrown: unknown;
    try {
      wireLocal(project, project);
    } catch (err) {
      thrown = err;
    }
    expect(isExplained(thrown), String(thrown)).toBe(true);
    expect((thrown as Error).message).toBe(`cannot write ${configDir}/.claude.json: EEXIST: file already exists, mkdir '${configDir}'`);
  });

  it('leaves an invalid Claude Code config alone, with a clear error, and writes nothing', () => {
    write(join(configDir, '.claude.json'), '{"projects": ');
    expect(() => wireLocal(project, project)).toThrow(/not valid JSON.*left as it is/);
    expect(existsSync(localSettingsPath(project))).toBe(false);
    expect(readFileSync(join(configDir, '.claude.json'), 'utf8')).toBe('{"projects": ');
  });

  it('finds Claude Code\'s config in CLAUDE_CONFIG_DIR, else in HOME', () => {
    expect(claudeConfigPath({ CLAUDE_CONFIG_DIR: '/c', HOME: '/h' })).toBe(join('/c', '.claude.json'));
    expect(claudeConfigPath({ HOME: '/h' })).toBe(join('/h', '.claude.json'));
  });
});

describe('hook command lines', () => {
  it.each([
    ['/home/me/notes', '/home/me/notes'],
    ['/home/me/My Notes', "'/home/me/My Notes'"],
    ["/home/me/it's", "'/home/me/it'\\''s'"],
    ['C:\\Users\\me\\notes', "'C:\\Users\\me\\notes'"],
    ['/n/$HOME`x`', "'/n/$HOME`x`'"],
  ])('shellQuote(%j) = %s', (word, want) => {
    expect(shellQuote(word)).toBe(want);
  });

  it('a real shell hands `tsm` exactly the vault path, whatever it holds', () => {
    const bin = join(project, 'bin');
    mkdirSync(bin);
    // A stand-in `tsm` that prints its arguments, one per line.
    writeFileSync(join(bin, 'tsm'), '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    chmodSync(join(bin, 'tsm'), 0o755);
    const vault = join(project, "my notes $HOME `id` it's");
    mkdirSync(vault);
    wireLocal(join(project), vault);
    const command = readJson(localSettingsPath(project)).hooks.UserPromptSubmit[0].hooks[0].command as string;
    const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(r.stdout).toBe(`hook\n--vault\n${vault}\n`);
  });
});

describe('wireClaudeCode, shared scope (--shared)', () => {
  it('creates .claude/settings.json and .mcp.json with every hook as the command line `tsm hook`', () => {
    const messages = wireClaudeCode(project, project);
    const settings = readJson(settingsPath(project));
    for (const event of HOOK_EVENTS) {
      expect(settings.hooks[event]).toEqual([{ hooks: [{ type: 'command', command: 'tsm hook', timeout: HOOK_TIMEOUT_S[event] }] }]);
    }
    expect(readJson(mcpPath(project))).toEqual({ mcpServers: { tsm: { command: 'tsm', args: ['serve'] } } });
    expect(messages).toHaveLength(3);
    expect(messages[2]).toMatch(/^prompt hook: the command `tsm hook` \(no `claude --version` on PATH; 2\.1\.118 or later/);
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
      expect(settings.hooks.Stop[0].hooks[0].command).toBe(`tsm hook --vault ${vault}`);
      expect(readJson(mcpPath(project)).mcpServers.tsm.args).toEqual(['serve', '--vault', vault]);
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });

  it('does not name a vault above the project (tsm hook finds it)', () => {
    const sub = join(project, 'code', 'fw');
    mkdirSync(sub, { recursive: true });
    wireClaudeCode(sub, project);
    expect(readJson(settingsPath(sub)).hooks.Stop[0].hooks[0].command).toBe('tsm hook');
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
      expect(after.hooks.Stop[0].hooks[0]).toEqual({ type: 'command', command: `tsm hook --vault ${vault}`, timeout: 30, statusMessage: 'saving session' });
      expect(readJson(mcpPath(project)).mcpServers.tsm.args).toEqual(['serve', '--vault', vault]);
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });

  it('rewrites an exec-form entry of an older tsm as a command line, keeping what the user added', () => {
    const old = { type: 'command', command: 'tsm', args: ['hook'], timeout: 30, statusMessage: 'saving session' };
    write(settingsPath(project), { hooks: { Stop: [{ hooks: [old] }] } });
    const messages = wireClaudeCode(project, project);
    expect(messages[0]).toMatch(/added UserPromptSubmit, SessionStart, PreCompact, SessionEnd; updated Stop/);
    expect(readJson(settingsPath(project)).hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'tsm hook', timeout: 30, statusMessage: 'saving session' }] }]);
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
    expect(checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() })).toEqual([]);
  });

  it('names the hooks that do not run tsm', () => {
    write(settingsPath(project), { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'tsm', args: ['hook'], timeout: 5 }] }] } });
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() });
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
    expect(checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() })).toEqual([]);
  });

  it('reports an invalid settings file as an error', () => {
    write(settingsPath(project), '{oops');
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() });
    expect(problems.find((p) => p.severity === 'error')?.message).toMatch(/not valid JSON/);
  });

  it('reports `tsm` missing from PATH', () => {
    wireClaudeCode(project, project);
    const problems = checkClaudeWiring(project, { ...env(), PATH: join(project, 'empty') });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('not on PATH') });
  });

  it('finds nothing wrong after the local wiring (settings.local.json and the local-scope MCP server)', () => {
    wireLocal(project, project);
    expect(checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() })).toEqual([]);
  });

  it('takes the enabled tsm plugin as wiring every hook and the MCP server', () => {
    write(join(configDir, 'settings.json'), { enabledPlugins: { 'tsm@the-space-memory': true } });
    expect(checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() })).toEqual([]);
    const problems = checkClaudeWiring(project, { ...env(), PATH: join(project, 'empty') });
    expect(problems.map((p) => p.message)).toEqual([expect.stringContaining('not on PATH')]);
  });

  it('warns when tsm runs twice per event: plugin and project settings, or both project scopes', () => {
    write(join(configDir, 'settings.json'), { enabledPlugins: { 'tsm@the-space-memory': true } });
    wireLocal(project, project);
    const twice = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() });
    expect(twice).toHaveLength(1);
    expect(twice[0].message).toMatch(/tsm runs more than once for UserPromptSubmit, SessionStart, Stop, PreCompact, SessionEnd/);
    expect(twice[0].message).toContain('settings.local.json');
    expect(twice[0].message).toContain('the tsm plugin');

    write(join(configDir, 'settings.json'), {});
    wireClaudeCode(project, project);
    const both = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() });
    expect(both.map((p) => p.message)).toEqual([expect.stringMatching(/settings\.json and .*settings\.local\.json/)]);
  });

  it('counts hooks in the user settings (they run in every project)', () => {
    write(join(configDir, 'settings.json'), { hooks: Object.fromEntries(HOOK_EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command: 'tsm hook', timeout: 30 }] }]])) });
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() });
    expect(problems.map((p) => p.message)).toEqual([expect.stringContaining('no `tsm serve` MCP server')]);
  });

  it('warns about exec-form hooks, which Claude Code before exec form runs as bare `tsm`', () => {
    write(localSettingsPath(project), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'tsm', args: ['hook'], timeout: 30 }] }] } });
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() });
    const exec = problems.find((p) => p.message.includes('exec form'));
    expect(exec?.message).toContain('Stop hook');
    expect(exec?.fix).toContain('tsm init --claude');
  });

  it('warns about a hook timeout too short for tsm', () => {
    wireClaudeCode(project, project);
    const settings = readJson(settingsPath(project));
    settings.hooks.UserPromptSubmit[0].hooks[0].timeout = 1;
    write(settingsPath(project), settings);
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() });
    expect(problems.map((p) => p.message)).toEqual([expect.stringContaining("UserPromptSubmit hook's timeout is 1 s")]);
  });
});

describe('wiredVault (which vault doctor checks in a project)', () => {
  it('reads --vault back from the hook command line tsm init --claude wrote, whatever the path holds', () => {
    const vault = join(project, "my notes $x it's");
    mkdirSync(vault);
    const sub = join(project, 'code');
    mkdirSync(sub);
    wireLocal(sub, vault);
    expect(wiredVault(sub, env())).toBe(vault);
  });

  it('reads --vault from an exec-form entry, and TSM_VAULT from a settings file\'s env (the plugin setup)', () => {
    write(settingsPath(project), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'tsm', args: ['hook', '--vault', '/n/a'] }] }] } });
    expect(wiredVault(project, env())).toBe('/n/a');
    rmSync(settingsPath(project));
    write(join(configDir, 'settings.json'), { env: { TSM_VAULT: '/home/me/notes' }, enabledPlugins: { 'tsm@the-space-memory': true } });
    expect(wiredVault(project, env())).toBe('/home/me/notes');
    rmSync(join(configDir, 'settings.json'));
    expect(wiredVault(project, env())).toBeNull();
  });

  it.each([
    ['tsm hook', ['tsm', 'hook']],
    ["tsm hook --vault '/a b/c'", ['tsm', 'hook', '--vault', '/a b/c']],
    ["tsm hook --vault '/it'\\''s'", ['tsm', 'hook', '--vault', "/it's"]],
    ['tsm hook --vault "/a \\"q\\" b"', ['tsm', 'hook', '--vault', '/a "q" b']],
    ['  tsm   hook\t--vault=/x  ', ['tsm', 'hook', '--vault=/x']],
  ])('shellWords(%j)', (line, want) => {
    expect(shellWords(line)).toEqual(want);
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

describe('the warm prompt hook (Claude Code 2.1.118 or later): tsm init --claude and tsm doctor', () => {
  const wireFor = (claudeVersion: string | null, shared = true) => wire(project, project, { shared, env: env(), claudeVersion });
  const prompt = () => handlersOf(readJson(settingsPath(project)), 'UserPromptSubmit');

  it('wires UserPromptSubmit as an mcp_tool call of the project\'s tsm serve, the other events as commands', () => {
    const messages = wireFor('2.1.331');
    expect(prompt()).toEqual([warmPromptHook('tsm')]);
    for (const event of HOOK_EVENTS.filter((e) => e !== 'UserPromptSubmit')) expect(handlersOf(readJson(settingsPath(project)), event).every(isTsmHook)).toBe(true);
    expect(readJson(mcpPath(project)).mcpServers.tsm).toMatchObject({ command: 'tsm', args: ['serve'] });
    expect(messages.at(-1)).toMatch(/^prompt hook: answered by the running tsm serve \(an mcp_tool hook, Claude Code 2\.1\.331/);
  });

  it('before 2.1.118, or when the version is unknown, the command hook every version runs', () => {
    for (const v of ['2.1.117', '2.0.12', null]) {
      wireFor(v);
      expect(prompt(), String(v)).toEqual([{ type: 'command', command: 'tsm hook', timeout: HOOK_TIMEOUT_S.UserPromptSubmit }]);
    }
  });

  it('switches the entry in place both ways (an upgrade, a downgrade), keeping what the user added; a second run changes nothing', () => {
    wireFor('2.0.76');
    const settings = readJson(settingsPath(project));
    settings.hooks.UserPromptSubmit[0].hooks[0].statusMessage = 'searching notes';
    write(settingsPath(project), settings);
    wireFor('2.1.331');
    expect(prompt()).toEqual([{ ...warmPromptHook('tsm'), statusMessage: 'searching notes' }]);
    const before = readFileSync(settingsPath(project), 'utf8');
    expect(wireFor('2.1.331')[0]).toContain('already in place');
    expect(readFileSync(settingsPath(project), 'utf8')).toBe(before);
    wireFor('2.1.117');
    expect(prompt()).toEqual([{ type: 'command', command: 'tsm hook', timeout: HOOK_TIMEOUT_S.UserPromptSubmit, statusMessage: 'searching notes' }]);
  });

  it('calls tsm serve by the name it is registered under; keeps the command hook when "tsm" is another server, or beside a hand-written `tsm hook`', () => {
    write(mcpPath(project), { mcpServers: { notes: { command: 'tsm', args: ['serve'] } } });
    wireFor('2.1.331');
    expect(prompt()).toEqual([warmPromptHook('notes')]);

    rmSync(settingsPath(project));
    write(mcpPath(project), { mcpServers: { tsm: { command: 'other-server' } } });
    wireFor('2.1.331');
    expect(prompt().every(isTsmHook)).toBe(true);

    write(settingsPath(project), { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'npx tsm hook' }] }] } });
    write(mcpPath(project), {});
    wireFor('2.1.331');
    expect(prompt()).toEqual([{ type: 'command', command: 'npx tsm hook' }]);
  });

  it('local scope: the mcp_tool hook calls the local-scope server "tsm"', () => {
    wireFor('2.1.331', false);
    expect(handlersOf(readJson(localSettingsPath(project)), 'UserPromptSubmit')).toEqual([warmPromptHook('tsm')]);
  });

  it('doctor: finds nothing wrong with the warm wiring on 2.1.118+, and says which path answers the prompt', () => {
    wireFor('2.1.331');
    expect(checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.1.331')).toEqual([]);
    expect(promptHookLine(project, env(), '2.1.331')).toBe('answered by the running tsm serve (an mcp_tool hook) (Claude Code 2.1.331)');
    rmSync(settingsPath(project));
    wireFor('2.0.76');
    expect(promptHookLine(project, env(), '2.0.76')).toBe('`tsm hook`, a new process per prompt (Claude Code 2.0.76)');
    expect(promptHookLine(project, env(), null)).toBe('`tsm hook`, a new process per prompt (Claude Code version unknown (no `claude` on PATH))');
  });

  it('doctor: the warm hook on a version without mcp_tool hooks is an error (the whole hooks file is dropped)', () => {
    wireFor('2.1.331');
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.1.117');
    expect(problems).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringMatching(/Claude Code 2\.1\.117 has no mcp_tool hooks \(2\.1\.118 added them\)/) })]);
    expect(problems[0].fix).toContain('tsm init --claude');
  });

  it("doctor: a hook event Claude Code 2.0 does not know is an error there (it skips the whole file), and nothing on 2.1", () => {
    // Measured on 2.0.76 with `claude -p`: a UserPromptSubmit hook beside `"NoSuchEvent": []` never ran;
    // 2.1.331 skipped only that entry. Before, doctor found the wiring fine under 2.0.76.
    wireFor('2.0.76');
    const file = settingsPath(project);
    const settings = readJson(file);
    write(file, { ...settings, hooks: { ...settings.hooks, StopFailure: [{ hooks: [{ type: 'command', command: 'other-tool' }] }] } });
    const e = { ...env(), PATH: pathWithTsm() };
    const problems = checkClaudeWiring(project, e, '2.0.76');
    expect(problems).toContainEqual({
      check: 'claude',
      severity: 'error',
      message: `${file}: hook event "StopFailure" is unknown to Claude Code 2.0.76, which skips the whole file for it, every hook and setting in it`,
      fix: `remove "StopFailure" from ${file}, or upgrade Claude Code (2.1 skips only that entry)`,
    });
    expect(problems.map((p) => p.message)).toContainEqual(expect.stringContaining('Claude Code does not run tsm'));
    expect(promptHookLine(project, e, '2.0.76')).toMatch(/^tsm does not answer it/);
    expect(checkClaudeWiring(project, e, '2.1.331').filter((p) => p.severity === 'error')).toEqual([]);
    // init, for that Claude Code, says so (and still wires: 2.1 would run the rest).
    expect(wireFor('2.0.76')).toContainEqual(`${file}: hook event "StopFailure" is unknown to Claude Code 2.0.76, which skips the whole file for it, tsm's hooks included: remove it, or upgrade Claude Code`);
    expect(wireFor('2.1.331').join('\n')).not.toContain('StopFailure');
    // PermissionRequest is 2.0.76's own (2.0.12 lacks it: not flagged, as a 2.0 between may know it).
    write(file, { ...settings, hooks: { ...settings.hooks, PermissionRequest: [] } });
    expect(checkClaudeWiring(project, e, '2.0.76').filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('doctor: with such an event in the local settings, the fix first removes it (the hooks init adds there would not run)', () => {
    // Measured before: doctor said "run `tsm init --claude`", which added tsm's hooks to that same file,
    // which Claude Code 2.0.76 went on skipping whole.
    const file = localSettingsPath(project);
    write(file, { hooks: { StopFailure: [] } });
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.0.76');
    const wiring = problems.filter((p) => p.severity !== 'error');
    expect(wiring.map((p) => p.message)).toContainEqual(expect.stringContaining('Claude Code does not run tsm'));
    for (const p of wiring) expect(p.fix).toMatch(new RegExp(`^remove "StopFailure" from ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, then run \`tsm init --claude\` in `));
    // The same file in the shared scope does not stop the local init: the plain fix.
    rmSync(file);
    write(settingsPath(project), { hooks: { StopFailure: [] } });
    for (const p of checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.0.76').filter((p) => p.severity !== 'error')) expect(p.fix).toMatch(/^run `tsm init --claude` in /);
  });

  it('doctor: the command hook on 2.1.118+ is fine, with a note that tsm serve could answer instead', () => {
    wireFor('2.0.76');
    const problems = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.1.331');
    expect(problems).toEqual([expect.objectContaining({ severity: 'info', message: expect.stringMatching(/starts `tsm hook` for every prompt/) })]);
  });

  it('doctor: the tsm-warm plugin counts as wiring; both plugins run every hook twice; tsm-warm on 2.0.76 is an error', () => {
    write(join(configDir, 'settings.json'), { enabledPlugins: { 'tsm-warm@the-space-memory': true } });
    expect(checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.1.331')).toEqual([]);
    expect(promptHookLine(project, env(), '2.1.331')).toMatch(/^answered by the running tsm serve/);
    const old = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.0.76');
    expect(old.map((p) => p.severity)).toEqual(['error']);
    expect(old[0].message).toContain('the tsm-warm plugin');

    write(join(configDir, 'settings.json'), { enabledPlugins: { 'tsm-warm@the-space-memory': true, 'tsm@the-space-memory': true } });
    const both = checkClaudeWiring(project, { ...env(), PATH: pathWithTsm() }, '2.1.331');
    expect(both.map((p) => p.message)).toEqual([expect.stringMatching(/tsm runs more than once for UserPromptSubmit, SessionStart, Stop, PreCompact, SessionEnd .*the tsm plugin.*the tsm-warm plugin|tsm-warm plugin.*the tsm plugin/)]);
    expect(promptHookLine(project, env(), '2.1.331')).toBe('answered by the running tsm serve (an mcp_tool hook) and `tsm hook`, a new process per prompt (Claude Code 2.1.331)');
    expect(isTsmWarmHook(warmPromptHook('x'))).toBe(true);
  });
});
