import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, defaultConfigText, loadConfig, resolveVault, unknownConfigKeys } from '../../src/vault/config.js';
import { isInside } from '../../src/vault/paths.js';
import { parseJsonc } from '../../src/vault/jsonc.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'tsm-cfg-'));
  dirs.push(d);
  return d;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('config', () => {
  it('resolves the vault: flag, then $TSM_VAULT, then the nearest .tsm/ or .obsidian/', () => {
    const root = tmp();
    mkdirSync(join(root, '.tsm'));
    mkdirSync(join(root, 'a/b'), { recursive: true });
    expect(resolveVault({ cwd: join(root, 'a/b'), env: {} })).toBe(root);
    expect(resolveVault({ cwd: join(root, 'a/b'), env: { TSM_VAULT: join(root, 'a') } })).toBe(join(root, 'a'));
    expect(resolveVault({ vaultFlag: 'b', cwd: join(root, 'a'), env: { TSM_VAULT: root } })).toBe(join(root, 'a/b'));
    mkdirSync(join(root, 'a/.obsidian'));
    expect(resolveVault({ cwd: join(root, 'a/b'), env: {} })).toBe(join(root, 'a')); // the nearest marker wins
  });

  it('never makes an unmarked folder a vault by itself: an error naming the fix, unless the command creates one', () => {
    const bare = tmp();
    mkdirSync(join(bare, 'src'));
    writeFileSync(join(bare, '.obsidian'), 'a file, not the folder Obsidian makes');
    for (const cwd of [bare, join(bare, 'src')]) {
      expect(() => resolveVault({ cwd, env: {} })).toThrow(/no vault here: .*`tsm init`.*--vault/);
    }
    expect(resolveVault({ cwd: bare, env: {}, cwdIsVault: true })).toBe(bare);
    expect(() => loadConfig({ cwd: bare, env: {} })).toThrow(ConfigError);
  });

  it('nor the home folder or the root, even for a command that creates one: named, they are chosen', () => {
    const home = tmp();
    expect(() => resolveVault({ cwd: home, env: { HOME: home }, cwdIsVault: true })).toThrow(`${home} is the home folder: tsm makes it a vault only when named`);
    expect(() => resolveVault({ cwd: '/', env: { HOME: home }, cwdIsVault: true })).toThrow('/ is the root folder: tsm makes it a vault only when named');
    expect(resolveVault({ cwd: join(home, '..'), env: { HOME: home }, cwdIsVault: true })).toBe(join(home, '..'));
    expect(resolveVault({ vaultFlag: home, cwd: home, env: { HOME: home }, cwdIsVault: true })).toBe(home);
    expect(resolveVault({ cwd: home, env: { HOME: home, TSM_VAULT: '~' }, cwdIsVault: true })).toBe(home);
  });

  it('a config.json that is not a plain file (a FIFO would block) is a clear error, not a wait', () => {
    const v = tmp();
    mkdirSync(join(v, '.tsm/config.json'), { recursive: true });
    expect(() => loadConfig({ vaultFlag: v, env: {} })).toThrow(/not a plain file/);
  });

  it('a vault that does not exist is a clear error', () => {
    expect(() => resolveVault({ vaultFlag: '/no/such/vault', env: {} })).toThrow(/vault not found: \/no\/such\/vault/);
  });

  it('env vars override config.json, which overrides defaults', () => {
    const v = tmp();
    mkdirSync(join(v, '.tsm'));
    writeFileSync(join(v, '.tsm/config.json'), '// comment\n{ "hookTopK": 7, "snippetBudget": 500, }\n');
    const cfg = loadConfig({ vaultFlag: v, env: { TSM_SNIPPET_BUDGET: '200' } });
    expect(cfg.hookTopK).toBe(7);
    expect(cfg.snippetBudget).toBe(200);
    expect(cfg.db).toBe(join(v, '.tsm/index.db'));
  });

  it('bad values are clear errors naming the setting', () => {
    const v = tmp();
    expect(() => loadConfig({ vaultFlag: v, env: { TSM_HOOK_TOP_K: 'lots' } })).toThrow(/TSM_HOOK_TOP_K must be a whole number/);
    expect(() => loadConfig({ vaultFlag: v, env: { TSM_HOOK_TIMEOUT_MS: '-5' } })).toThrow(ConfigError);
    mkdirSync(join(v, '.tsm'));
    writeFileSync(join(v, '.tsm/config.json'), '{ "extensions": "md" }');
    expect(() => loadConfig({ vaultFlag: v, env: {} })).toThrow(/extensions must be a list/);
    writeFileSync(join(v, '.tsm/config.json'), '{ not json');
    expect(() => loadConfig({ vaultFlag: v, env: {} })).toThrow(/config.json: not valid JSON/);
  });

  it('every key is type-checked: a value of the wrong JSON type names its setting, never becomes text', () => {
    const v = tmp();
    mkdirSync(join(v, '.tsm'));
    const bad = (json: string, message: RegExp) => {
      writeFileSync(join(v, '.tsm/config.json'), json);
      expect(() => loadConfig({ vaultFlag: v, env: {} }), json).toThrow(message);
    };
    bad('{"sessionsDir": {"a": 1}}', /sessionsDir must be a folder path/);
    bad('{"sessionsDir": ""}', /sessionsDir must be a folder path/);
    bad('{"sessionsDir": 5}', /sessionsDir must be a folder path/);
    bad('{"halfLifeDays": [1, 2]}', /halfLifeDays must be an object/);
    bad('{"chunkChars": "300"}', /chunkChars must be a whole number from 200 to 1000000 \(got "300"\)/);
    // The line names the file to correct (tsm doctor reports it and checks the rest with the defaults).
    bad('{"chunkChars": "300"}', /\.tsm\/config\.json: chunkChars must be .*; correct it there$/);
    bad('{"hookTopK": "7"}', /config\.json: hookTopK must be a whole number/);
    // The model's settings too: `"model": 42` was reported as TSM_MODEL, a variable nobody set.
    bad('{"model": 42}', /config\.json: model must be a model name like "cl-nagoya\/ruri-v3-30m" \(got 42\); correct it there$/);
    bad('{"modelDir": 5}', /config\.json: modelDir must be a folder path or null \(got 5\); correct it there$/);
    expect(() => loadConfig({ vaultFlag: v, env: { TSM_MODEL: ' ' } })).toThrow(/^TSM_MODEL must be a model name/);
    // Environment variables are text: a number written in one is a number.
    writeFileSync(join(v, '.tsm/config.json'), '{}');
    const cfg = loadConfig({ vaultFlag: v, env: { TSM_HOOK_TOP_K: ' 7', TSM_SESSIONS_DIR: 'logs' } });
    expect(cfg.hookTopK).toBe(7);
    expect(cfg.sessionsDir).toBe(join(v, 'logs'));
    // Blank folder names are refused from the variables as from the file: TSM_SESSIONS_DIR=' ' wrote session
    // notes into a folder named ' ' in the vault, and "modelDir": " " looked for the model there.
    expect(() => loadConfig({ vaultFlag: v, env: { TSM_SESSIONS_DIR: ' ' } })).toThrow(/^TSM_SESSIONS_DIR must be a folder path/);
    expect(() => loadConfig({ vaultFlag: v, env: { TSM_MODEL_DIR: ' ' } })).toThrow(/^TSM_MODEL_DIR must be a folder path or null \(got " "\)/);
    bad('{"modelDir": "  "}', /config\.json: modelDir must be a folder path or null \(got "  "\); correct it there$/);
  });

  it('a number past the range JSON reads (1e400, Infinity to JSON.parse) is said as such, never as the null JSON writes it', () => {
    const v = tmp();
    mkdirSync(join(v, '.tsm'));
    const bad = (json: string, message: RegExp) => {
      writeFileSync(join(v, '.tsm/config.json'), json);
      expect(() => loadConfig({ vaultFlag: v, env: {} }), json).toThrow(message);
    };
    // It was "(got null)".
    bad('{"chunkChars": 1e400}', /chunkChars must be a whole number from 200 to 1000000 \(got a number too large\); correct it there$/);
    bad('{"maxFileBytes": 1e400}', /maxFileBytes must be a whole number from 1 to 1073741824 \(got a number too large\)/);
    bad('{"hookTopK": -1e400}', /hookTopK must be a whole number from 1 to 50 \(got a negative number too large\)/);
    bad('{"halfLifeDays": {"daily": 1e999}}', /halfLifeDays\.daily must be a whole number from 0 to 100000 \(got a number too large\)/);
    bad('{"semantic": 1e400}', /semantic must be true or false \(got a number too large\)/);
    // Inside a list: the same words where JSON.stringify wrote null ('["daily",null]').
    bad('{"dailyFolders": ["daily", 1e400]}', /dailyFolders must be a list of non-empty strings \(got \["daily",\(a number too large\)\]\)/);
    // A number in range is shown as before.
    bad('{"chunkChars": 1e300}', /\(got 1e\+300\)/);
  });

  it('a variable set to nothing (FOO= tsm …, export FOO=) is unset, as ripgrep and XDG read theirs: every one alike', () => {
    // An empty TSM_HOOK_TOP_K, TSM_SNIPPET_BUDGET or TSM_HOOK_TIMEOUT_MS was an error ('must be a whole number
    // (got "")'), while an empty TSM_VAULT, TSM_DB, TSM_SESSIONS_DIR, TSM_MODEL or TSM_MODEL_DIR counted as unset.
    const v = tmp();
    mkdirSync(join(v, '.tsm'));
    writeFileSync(
      join(v, '.tsm/config.json'),
      '{ "hookTopK": 9, "snippetBudget": 300, "hookTimeoutMs": 900, "sessionsDir": "logs", "model": "m/x", "modelDir": "models" }',
    );
    const names = ['TSM_HOOK_TOP_K', 'TSM_SNIPPET_BUDGET', 'TSM_HOOK_TIMEOUT_MS', 'TSM_SESSIONS_DIR', 'TSM_MODEL', 'TSM_MODEL_DIR', 'TSM_DB'];
    const unset = loadConfig({ vaultFlag: v, env: {} });
    expect(loadConfig({ vaultFlag: v, env: Object.fromEntries(names.map((n) => [n, ''])) })).toEqual(unset);
    expect(unset).toMatchObject({ hookTopK: 9, snippetBudget: 300, hookTimeoutMs: 900, sessionsDir: join(v, 'logs'), model: 'm/x' });
    expect(resolveVault({ cwd: v, env: { TSM_VAULT: '' } })).toBe(v);
    // Something set is read and checked: blanks are a value, and not a number.
    expect(() => loadConfig({ vaultFlag: v, env: { TSM_HOOK_TOP_K: ' ' } })).toThrow(/TSM_HOOK_TOP_K must be a whole number .*\(got " "\)/);
  });

  it('a config.json starting with a UTF-8 byte order mark (Windows editors) is read', () => {
    const v = tmp();
    mkdirSync(join(v, '.tsm'));
    writeFileSync(join(v, '.tsm/config.json'), '\uFEFF// comment\n{ "hookTopK": 9 }\n');
    expect(loadConfig({ vaultFlag: v, env: {} }).hookTopK).toBe(9);
  });

  it('keys tsm does not know are listed (doctor warns), not refused', () => {
    const v = tmp();
    mkdirSync(join(v, '.tsm'));
    writeFileSync(join(v, '.tsm/config.json'), '{ "hookTopk": 3, "chunkChars": 500, "halfLifeDays": {"daily": 5, "knowlege": 9} }');
    expect(loadConfig({ vaultFlag: v, env: {} }).chunkChars).toBe(500);
    expect(unknownConfigKeys(v)).toEqual(['hookTopk', 'halfLifeDays.knowlege']);
    expect(unknownConfigKeys(tmp())).toEqual([]);
    writeFileSync(join(v, '.tsm/config.json'), defaultConfigText());
    expect(unknownConfigKeys(v)).toEqual([]);
    // Keys named like a member of every object were taken as known (`k in DEFAULTS`) and never reported.
    writeFileSync(join(v, '.tsm/config.json'), '{ "toString": 1, "constructor": 2, "hasOwnProperty": 3, "halfLifeDays": {"valueOf": 4} }');
    expect(unknownConfigKeys(v)).toEqual(['toString', 'constructor', 'hasOwnProperty', 'halfLifeDays.valueOf']);
    expect(loadConfig({ vaultFlag: v, env: {} }).chunkChars).toBe(loadConfig({ vaultFlag: tmp(), env: {} }).chunkChars);
  });

  it('the commented default config parses and round-trips to the defaults', () => {
    const v = tmp();
    mkdirSync(join(v, '.tsm'));
    writeFileSync(join(v, '.tsm/config.json'), defaultConfigText());
    expect(parseJsonc(defaultConfigText())).toMatchObject({ chunkChars: 2400 });
    expect(loadConfig({ vaultFlag: v, env: {} }).chunkChars).toBe(2400);
  });

  it('the comment on "extensions" says the list replaces the default, as README does', () => {
    // It said only "File extensions that are notes": [".mdx"] added to .md, one would think, and it drops .md.
    const lines = defaultConfigText().split('\n');
    const at = lines.findIndex((l) => l.trim().startsWith('"extensions"'));
    expect(lines[at - 1]).toMatch(/^\s*\/\/ .*whole list.*\[".md", ".mdx"\]/);
  });

  it("README's list of the variables that win over config.json names every TSM_* setting this file reads", () => {
    // TSM_READ_RETRY_MS was read here (and written in the config.json comment) but missing from README's list.
    const source = readFileSync(join(__dirname, '../../src/vault/config.ts'), 'utf8');
    const read = [...new Set([...source.matchAll(/'(TSM_[A-Z_]+)'/g)].map((m) => m[1]))];
    expect(read.length).toBeGreaterThan(5);
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const list = /Environment variables win over the file: ([^.]+)\./.exec(readme.replace(/\s+/g, ' '))?.[1] ?? '';
    for (const name of read) expect(list, name).toContain(`\`${name}\``);
  });

  it('jsonc keeps comment markers inside strings', () => {
    expect(parseJsonc('{"a": "http://x // y", /* c */ "b": [1,2,],}')).toEqual({ a: 'http://x // y', b: [1, 2] });
  });

  it('isInside confines paths', () => {
    expect(isInside('/v', '/v/a/b.md')).toBe(true);
    expect(isInside('/v', '/v')).toBe(true);
    expect(isInside('/v', '/v/../etc')).toBe(false);
    expect(isInside('/v', '/vault2/x')).toBe(false);
    expect(isInside('/v', '/v/..foo')).toBe(true);
  });
});
