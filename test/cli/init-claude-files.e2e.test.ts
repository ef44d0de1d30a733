// `tsm init --claude` against settings files as users keep them: links into a dotfiles folder that lead
// nowhere yet, files made read-only, files written with CRLF, another indent or a BOM, and several setups at
// once. Through the built CLI, with a HOME and CLAUDE_CONFIG_DIR of the test's own (never the developer's).
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TSM, tsm, tsmAsync } from '../helpers/cli.js';

let root: string;
let project: string;
let vault: string;
let claudeDir: string;
let env: Record<string, string>;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tsm-init-claude-')));
  project = join(root, 'project');
  vault = join(root, 'notes');
  claudeDir = join(root, 'claude');
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(vault);
  mkdirSync(claudeDir);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(TSM, join(bin, 'tsm'));
  mkdirSync(join(root, 'home'));
  env = { HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: claudeDir, PATH: [bin, dirname(process.execPath), process.env.PATH].join(delimiter) };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const init = (...args: string[]) => tsm(['init', '--claude', ...args, '--vault', vault], { cwd: project, env });
const localSettings = () => join(project, '.claude', 'settings.local.json');

describe('tsm init --claude: links to nothing', () => {
  // Measured before: a settings.local.json linked into a dotfiles folder whose file was not there yet (a
  // repository not cloned, a file not made) was replaced by a plain file, exit 0: the link was gone, and the
  // dotfiles never got the wiring. The same for Claude Code's config and for a `.claude` folder link.
  it('a settings file that is a link to nothing: left a link, nothing written anywhere, the fix named', () => {
    const target = join(root, 'dotfiles', 'settings.local.json');
    mkdirSync(dirname(target));
    symlinkSync(target, localSettings());
    const r = init();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`tsm: ${localSettings()} is a link to ${target}, which does not exist: tsm leaves the link as it is; create ${target} (\`{}\` will do) or remove the link, then run \`tsm init --claude\` again\n`);
    expect(lstatSync(localSettings()).isSymbolicLink()).toBe(true);
    expect(readlinkSync(localSettings())).toBe(target);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(claudeDir, '.claude.json'))).toBe(false); // the other file waits for this one
  });

  it('a settings file that is a link in a loop: left a link', () => {
    // Measured before (with the check above in place): a link to itself passed it (its stat fails with ELOOP,
    // not ENOENT) and was renamed over.
    symlinkSync('settings.local.json', localSettings());
    const r = init();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`tsm: ${localSettings()} is a link to ${localSettings()}, which does not exist: tsm leaves the link as it is`);
    expect(lstatSync(localSettings()).isSymbolicLink()).toBe(true);
  });

  it("Claude Code's config a link to nothing, and a `.claude` folder that is one: the same", () => {
    const target = join(root, 'dotfiles', 'claude.json');
    symlinkSync(target, join(claudeDir, '.claude.json'));
    const r = init();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`is a link to ${target}, which does not exist: tsm leaves the link as it is`);
    expect(lstatSync(join(claudeDir, '.claude.json')).isSymbolicLink()).toBe(true);
    expect(existsSync(localSettings())).toBe(false);
    rmSync(join(claudeDir, '.claude.json'));

    rmSync(join(project, '.claude'), { recursive: true });
    const folder = join(root, 'dotfiles', 'project-claude');
    symlinkSync(folder, join(project, '.claude'));
    const again = init();
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain(`tsm: ${join(project, '.claude')} is a link to ${folder}, which does not exist`);
    expect(lstatSync(join(project, '.claude')).isSymbolicLink()).toBe(true);
    expect(existsSync(folder)).toBe(false);
  });
});

describe('tsm init --claude: a read-only settings file', () => {
  // Measured before: a settings file its owner made read-only (chmod 444, to keep tools off it) was replaced
  // all the same, exit 0, mode 0444 kept: the rename into its folder needs no write permission on the file.
  it('is left as it is, with the fix; the other file is not written either', () => {
    writeFileSync(localSettings(), '{"permissions": {"allow": ["Bash(ls)"]}}\n');
    chmodSync(localSettings(), 0o444);
    const r = init();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`tsm: ${localSettings()} is read-only: tsm leaves it as it is; make it writable (\`chmod u+w ${localSettings()}\`) and run \`tsm init --claude\` again\n`);
    expect(readFileSync(localSettings(), 'utf8')).toBe('{"permissions": {"allow": ["Bash(ls)"]}}\n');
    expect(existsSync(join(claudeDir, '.claude.json'))).toBe(false);
    chmodSync(localSettings(), 0o644);
    expect(init().code).toBe(0);
  });
});

describe('tsm init --claude: a hard-linked settings file', () => {
  // Measured before: a settings.local.json hard-linked to a dotfiles copy was renamed over: the project's
  // name got a new file with the wiring (1 link), the dotfiles copy kept `{}`, and the two parted for good.
  it('is left as it is, with the fix', () => {
    const copy = join(root, 'dotfiles-settings.json');
    writeFileSync(copy, '{}\n');
    linkSync(copy, localSettings());
    const r = init();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`tsm: ${localSettings()} has 2 names (hard links), and a new file in its place would part it from the others: tsm leaves it as it is; make it a symlink (\`ln -sf\`) or a single file, then run \`tsm init --claude\` again\n`);
    expect(statSync(copy).nlink).toBe(2);
    expect(readFileSync(copy, 'utf8')).toBe('{}\n');
  });
});

describe('tsm init --claude: the way the file is written', () => {
  // Measured before: a committed .claude/settings.json with CRLF line ends, a 4-space indent, a BOM and no
  // final newline came back LF, 2-space, without the BOM, with a newline: every line of it changed in git.
  it('keeps line ends, indent, a BOM and a missing final newline; a second run changes no byte', () => {
    const file = join(project, '.claude', 'settings.json');
    const original = '\uFEFF{\r\n    "zeta": 1,\r\n    "hooks": {\r\n        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "other-tool"}]}]\r\n    },\r\n    "alpha": [1, 2]\r\n}';
    writeFileSync(file, original);
    chmodSync(file, 0o640);
    const r = init('--shared');
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('\uFEFF{\r\n    "zeta": 1,\r\n    "hooks": {\r\n        "PreToolUse": [\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n'); // every line ends CRLF
    expect(text.endsWith('\r\n    ]\r\n}')).toBe(true); // "alpha" last, no final newline
    const data = JSON.parse(text.slice(1));
    expect(Object.keys(data)).toEqual(['zeta', 'hooks', 'alpha']);
    expect(Object.keys(data.hooks)[0]).toBe('PreToolUse');
    expect(lstatSync(file).mode & 0o777).toBe(0o640);
    expect(init('--shared').code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);

    // A tab indent, and a file on one line (no indent to keep: the 2 spaces of a new file).
    writeFileSync(file, '{\n\t"a": 1\n}\n');
    init('--shared');
    expect(readFileSync(file, 'utf8')).toMatch(/^\{\n\t"a": 1,\n\t"hooks": \{\n\t\t"UserPromptSubmit"/);
    writeFileSync(file, '{"a": 1}');
    init('--shared');
    expect(readFileSync(file, 'utf8')).toMatch(/^\{\n {2}"a": 1,\n {2}"hooks": \{\n {4}"UserPromptSubmit"[^]*\}$/);
  });
});

describe('tsm init --claude: several at once', () => {
  // Measured before: 8 `tsm init --claude` in 8 projects at once, one Claude Code config: each said "added MCP
  // server", and the config held 4 of the 8 projects (each read the file, added its own, and renamed its copy
  // over the others').
  it("every project's MCP server reaches Claude Code's config, and the file is whole", async () => {
    const projects = Array.from({ length: 8 }, (_, i) => join(root, `p${i}`));
    for (const p of projects) mkdirSync(p);
    writeFileSync(join(claudeDir, '.claude.json'), JSON.stringify({ numStartups: 7 }));
    const runs = await Promise.all(projects.map((p) => tsmAsync(['init', '--claude', '--vault', vault], { cwd: p, env })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(claudeDir, '.claude.json'), 'utf8'));
    expect(config.numStartups).toBe(7);
    expect(Object.keys(config.projects).sort()).toEqual([...projects].sort());
    expect(readdirSync(claudeDir)).toEqual(['.claude.json']); // no temp or lock file left
  });
});

describe('tsm init --claude: the project folder', () => {
  // Measured before: CLAUDE_PROJECT_DIR left naming a folder that is not there (a typo, a shell of another
  // machine's) made that folder and its .claude/, and wired a project nobody has, exit 0; doctor told to run
  // `tsm init --claude` there.
  it('$CLAUDE_PROJECT_DIR naming no folder: nothing made, the variable named; doctor says the same', () => {
    const missing = join(root, 'no-such-project');
    const r = tsm(['init', '--claude', '--vault', vault], { cwd: project, env: { ...env, CLAUDE_PROJECT_DIR: missing } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`tsm: $CLAUDE_PROJECT_DIR names ${missing}, which is not a folder: correct it, or unset it to use the current folder (tsm makes no project folder)\n`);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(claudeDir, '.claude.json'))).toBe(false);
    expect(existsSync(join(vault, '.tsm'))).toBe(false); // checked before anything is made

    const doctor = tsm(['doctor', '--json', '--vault', vault], { cwd: project, env: { ...env, CLAUDE_PROJECT_DIR: missing } });
    const claude = (JSON.parse(doctor.stdout).problems as { check: string; severity: string; message: string }[]).filter((p) => p.check === 'claude');
    expect(claude).toEqual([expect.objectContaining({ severity: 'warning', message: `$CLAUDE_PROJECT_DIR names ${missing}, which is not a folder: its Claude Code wiring was not checked` })]);
  });
});

describe('tsm init --claude: two tsm entries for one event', () => {
  // Measured before: a settings file holding an older tsm's exec-form entry and a command line for the same
  // event (two vaults over time) had the first updated and the second left naming the old vault, "added …;
  // updated UserPromptSubmit", nothing more: every prompt searched twice. doctor's fix said "remove the tsm
  // entries from the other files", and there was one file.
  it('init updates the first, leaves the other, and says so; doctor names the one file', () => {
    writeFileSync(
      localSettings(),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: 'tsm', args: ['hook', '--vault', '/old'], timeout: 5 }] },
            { hooks: [{ type: 'command', command: 'tsm hook --vault /old', timeout: 5 }] },
          ],
        },
      }),
    );
    const r = init();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`tsm: ${localSettings()}: UserPromptSubmit has 2 tsm entries, left as they are: tsm runs once for each; keep one, remove the others\n`);
    const groups = JSON.parse(readFileSync(localSettings(), 'utf8')).hooks.UserPromptSubmit;
    expect(groups.map((g: { hooks: { command: string }[] }) => g.hooks[0].command)).toEqual([`tsm hook --vault ${vault}`, 'tsm hook --vault /old']);
    expect(init().stderr).toContain('UserPromptSubmit has 2 tsm entries');

    const doctor = JSON.parse(tsm(['doctor', '--json', '--vault', vault], { cwd: project, env }).stdout);
    expect(doctor.problems).toContainEqual(
      expect.objectContaining({
        message: `tsm runs more than once for UserPromptSubmit (wired in ${localSettings()}), so each prompt gets its search results twice`,
        fix: `keep one tsm entry per event in ${localSettings()}: remove the others`,
      }),
    );
  });
});

describe('tsm init --claude and tsm doctor: hooks Claude Code would refuse', () => {
  // Claude Code checks a settings file's hooks against its schema. Measured with `claude -p` and a
  // UserPromptSubmit hook beside the error: 2.0.12 and 2.0.76 skip the whole file for each case below, the
  // hook beside it included; 2.1.331 skips that entry, or the whole file for a matcher that is not text.
  // Measured before: init added tsm's hooks beside such an error (exit 0), and doctor found nothing wrong.
  const entry = 'Claude Code 2.0 skips the whole file for it, every hook and setting in it (2.1.331 skips that entry)';
  const whole = 'Claude Code skips the whole file, every hook and setting in it';
  it.each([
    [{ hooks: { Stop: [{ hooks: {} }] } }, 'hooks.Stop.0.hooks', 'must be a list (found: an object)', entry],
    [{ hooks: { PreToolUse: [{ matcher: { tools: ['Bash'] }, hooks: [] }] } }, 'hooks.PreToolUse.0.matcher', 'must be text (found: an object)', whole],
    [{ hooks: { SessionStart: [{ type: 'command', command: 'x' }] } }, 'hooks.SessionStart.0.hooks', 'must be a list (found: nothing)', entry],
    [{ hooks: { Stop: [{ hooks: ['x'] }] } }, 'hooks.Stop.0.hooks.0', 'must be an object (found: text)', entry],
    [{ hooks: [] }, 'hooks', 'must be an object of events (found: a list)', entry],
  ])('%j: init leaves the file and names the key; doctor names it as an error, and a fix that works', (settings, key, wants, consequence) => {
    const said = `"${key}" ${wants}`;
    const text = JSON.stringify(settings);
    writeFileSync(localSettings(), text);
    const r = init();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`tsm: ${localSettings()}: ${said}; ${consequence}: correct it, then run \`tsm init --claude\` again (the file was left as it is)\n`);
    expect(readFileSync(localSettings(), 'utf8')).toBe(text);
    expect(existsSync(join(claudeDir, '.claude.json'))).toBe(false);

    const doctor = tsm(['doctor', '--json', '--vault', vault], { cwd: project, env });
    expect(doctor.code).toBe(1);
    const problems = JSON.parse(doctor.stdout).problems as { check: string; severity: string; message: string; fix: string }[];
    expect(problems).toContainEqual({ check: 'claude', severity: 'error', message: `${localSettings()}: ${said}: ${consequence}`, fix: `correct "${key}" in ${localSettings()}` });
    // Measured before: the findings below said "run `tsm init --claude` in <project>", which init refuses
    // (above) as long as the file holds that key: the fix they name is the one that works.
    const wiring = problems.filter((p) => p.check === 'claude' && p.severity !== 'error');
    expect(wiring.length).toBeGreaterThan(0);
    // (Run from the project with --vault, the commands a fix names carry it: fix-target.ts.)
    for (const p of wiring) expect(p.fix).toBe(`correct "${key}" in ${localSettings()}, then run \`tsm init --claude --vault ${vault}\` in ${project} (or install the tsm plugin: see docs/claude-code.md)`);
    // Followed, it works.
    writeFileSync(localSettings(), '{}');
    expect(init().code).toBe(0);
    const after = JSON.parse(tsm(['doctor', '--json', '--vault', vault], { cwd: project, env }).stdout).problems as { check: string }[];
    expect(after.filter((p) => p.check === 'claude')).toEqual([]);
  });

  it("doctor: tsm's hooks beside an entry error count as wired for a Claude Code that is not 2.0 (unknown here), never beside a bad matcher", () => {
    expect(init().code).toBe(0);
    const wired = JSON.parse(readFileSync(localSettings(), 'utf8'));
    const doctor = () => JSON.parse(tsm(['doctor', '--json', '--vault', vault], { cwd: project, env }).stdout) as { prompt_hook: string; problems: { message: string }[] };
    writeFileSync(localSettings(), JSON.stringify({ ...wired, hooks: { ...wired.hooks, Notification: [{ hooks: {} }] } }));
    expect(doctor().prompt_hook).toMatch(/^`tsm hook`, a new process per prompt/);
    expect(doctor().problems.map((p) => p.message)).not.toContainEqual(expect.stringContaining('Claude Code does not run tsm'));
    writeFileSync(localSettings(), JSON.stringify({ ...wired, hooks: { ...wired.hooks, PreToolUse: [{ matcher: 7, hooks: [] }] } }));
    expect(doctor().prompt_hook).toMatch(/^tsm does not answer it/);
    expect(doctor().problems.map((p) => p.message)).toContainEqual(expect.stringContaining('Claude Code does not run tsm'));
  });
});

describe('tsm doctor: hooks switched off', () => {
  // Measured before: with `"disableAllHooks": true` in a settings file (docs/claude-code.md's "for a while",
  // forgotten) doctor found the wiring fine, and no tsm hook ran.
  it('names the file whose disableAllHooks wins, and says nothing when a more local file sets it back', () => {
    expect(init().code).toBe(0);
    const shared = join(project, '.claude', 'settings.json');
    writeFileSync(shared, '{"disableAllHooks": true}\n');
    const problems = () => (JSON.parse(tsm(['doctor', '--json', '--vault', vault], { cwd: project, env }).stdout).problems as { check: string; message: string }[]).filter((p) => p.check === 'claude');
    expect(problems()).toContainEqual({
      check: 'claude',
      severity: 'warning',
      message: `${shared} sets "disableAllHooks": true, so Claude Code runs no hook, tsm's included`,
      fix: `remove "disableAllHooks" from ${shared} when you want tsm's hooks back`,
    });
    const local = JSON.parse(readFileSync(localSettings(), 'utf8'));
    writeFileSync(localSettings(), JSON.stringify({ ...local, disableAllHooks: false }));
    expect(problems().filter((p) => p.message.includes('disableAllHooks'))).toEqual([]);
  });
});

describe('tsm doctor: a vault the settings name with ~', () => {
  // Measured before: with the plugin and `"env": {"TSM_VAULT": "~/notes"}` in the user settings (the README's
  // way), `tsm doctor` in a project stopped at "vault not found: <project>/~/notes (correct --vault, …)",
  // exit 1; a hook line `tsm hook --vault ~/notes` the same. tsm itself reads `~` there as the home folder.
  it('reads ~ in TSM_VAULT of a settings file and in a hook line as the home folder', () => {
    const notes = join(env.HOME, 'notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'a.md'), '# A\n');
    writeFileSync(join(claudeDir, 'settings.json'), JSON.stringify({ env: { TSM_VAULT: '~/notes' }, enabledPlugins: { 'tsm@the-space-memory': true } }));
    const viaEnv = tsm(['doctor', '--json'], { cwd: project, env });
    expect(viaEnv.stderr).toBe('');
    expect(JSON.parse(viaEnv.stdout).vault).toBe(notes);
    rmSync(join(claudeDir, 'settings.json'));

    writeFileSync(localSettings(), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'tsm hook --vault ~/notes' }] }] } }));
    const viaHook = tsm(['doctor', '--json'], { cwd: project, env });
    expect(viaHook.stderr).toBe('');
    expect(JSON.parse(viaHook.stdout).vault).toBe(notes);
  });

  // Measured before: "tsm: vault not found: <path> (correct --vault, or create the folder first)": no
  // --vault was given; the path came from the settings, which were not named.
  it('a vault the settings name that is not there: the error names where it was named', () => {
    const gone = join(root, 'gone');
    const user = join(claudeDir, 'settings.json');
    writeFileSync(user, JSON.stringify({ env: { TSM_VAULT: gone }, enabledPlugins: { 'tsm@the-space-memory': true } }));
    const viaEnv = tsm(['doctor'], { cwd: project, env });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toBe(`tsm: vault not found: ${gone}, named by TSM_VAULT in ${user} (correct it there, or create the folder first)\n`);
    rmSync(user);
    writeFileSync(localSettings(), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `tsm hook --vault ${gone}` }] }] } }));
    expect(tsm(['doctor'], { cwd: project, env }).stderr).toBe(`tsm: vault not found: ${gone}, named by --vault of a tsm hook in ${localSettings()} (correct it there, or create the folder first)\n`);
  });
});
