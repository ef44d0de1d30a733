// `tsm init --claude` and `tsm doctor` run in a Claude Code project, through the built CLI, with a HOME and
// CLAUDE_CONFIG_DIR of the test's own (never the developer's ~/.claude.json).
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TSM, tsm, waitFor, writeFiles } from '../helpers/cli.js';

let root: string;
let project: string;
let vault: string;
let env: Record<string, string>;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tsm-doctor-')));
  project = join(root, 'project');
  vault = join(root, 'notes');
  mkdirSync(project);
  mkdirSync(vault);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(TSM, join(bin, 'tsm'));
  mkdirSync(join(root, 'home'));
  env = { HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: join(root, 'claude'), PATH: [bin, dirname(process.execPath), process.env.PATH].join(delimiter) };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const doctor = (cwd = project) => {
  const r = tsm(['doctor', '--json'], { cwd, env });
  return { code: r.code, report: JSON.parse(r.stdout) as { vault: string; project: string; ok: boolean; problems: { check: string; severity: string; message: string; fix: string }[] } };
};

describe('tsm init --claude', () => {
  it('writes the local scope by default and the shared files with --shared', () => {
    const local = tsm(['init', '--claude', '--vault', vault], { cwd: project, env });
    expect(local.code).toBe(0);
    expect(local.stderr).toContain('settings.local.json: tsm hooks added');
    expect(local.stderr).not.toContain('not on PATH');
    expect(existsSync(join(project, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(join(project, '.mcp.json'))).toBe(false);
    const config = JSON.parse(readFileSync(join(root, 'claude', '.claude.json'), 'utf8'));
    expect(config.projects[project].mcpServers.tsm.args).toEqual(['serve', '--vault', vault]);

    const shared = tsm(['init', '--claude', '--shared', '--vault', vault], { cwd: project, env });
    expect(shared.code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command).toBe(`tsm hook --vault ${vault}`);
    expect(JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')).mcpServers.tsm.args).toEqual(['serve', '--vault', vault]);
    expect(shared.stderr).toMatch(/settings\.local\.json runs tsm hooks too/);
  });

  it('warns when `tsm` is not on PATH, as Claude Code will see it (not the node_modules/.bin npx adds)', () => {
    const warning = /^tsm: warning: `tsm` is not on PATH, and Claude Code runs the hooks and `tsm serve` by that name: install tsm globally/m;
    const bare = { ...env, PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter) };
    const r = tsm(['init', '--claude', '--vault', vault], { cwd: project, env: bare });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(warning);
    // `npx tsm init --claude` with tsm installed in the project only: npm put its node_modules/.bin on PATH.
    const local = join(project, 'node_modules', '.bin');
    mkdirSync(local, { recursive: true });
    symlinkSync(TSM, join(local, 'tsm'));
    const npx = { ...bare, PATH: [local, bare.PATH].join(delimiter), npm_command: 'exec' };
    expect(tsm(['init', '--claude', '--vault', vault], { cwd: project, env: npx }).stderr).toMatch(warning);
    const problems = JSON.parse(tsm(['doctor', '--json'], { cwd: project, env: npx }).stdout).problems as { message: string }[];
    expect(problems.map((p) => p.message)).toContain('`tsm` is not on PATH, so Claude Code cannot run the hooks');
    // The same folder on the user's own PATH (no npm around): found.
    expect(tsm(['init', '--claude', '--vault', vault], { cwd: project, env: { ...npx, npm_command: undefined } }).stderr).not.toMatch(warning);
  });

  it('--shared without --claude is a usage error', () => {
    const r = tsm(['init', '--shared', '--vault', vault], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--shared goes with --claude');
  });
});

describe('tsm doctor in a project', () => {
  it('checks the vault the project is wired to, and finds its wiring complete', () => {
    writeFiles(vault, { 'a.md': '# A\n\ntext' });
    expect(tsm(['index', '--vault', vault], { env }).code).toBe(0);
    tsm(['init', '--claude', '--vault', vault], { cwd: project, env });
    const { code, report } = doctor();
    expect(report.vault).toBe(vault);
    expect(report.project).toBe(project);
    expect(report.problems.filter((p) => p.check === 'claude')).toEqual([]);
    expect(code).toBe(0);
  });

  it('says when the project is not wired at all (info, not a fault)', () => {
    writeFiles(vault, { 'a.md': '# A\n\ntext' });
    const r = tsm(['doctor', '--json', '--vault', vault], { cwd: project, env });
    const report = JSON.parse(r.stdout);
    expect(report.problems).toContainEqual(expect.objectContaining({ check: 'claude', severity: 'info', message: expect.stringContaining(`Claude Code does not run tsm in ${project}`) }));
  });

  it('surfaces recent hook.log problems: how many, and the last few lines', () => {
    writeFiles(vault, { 'a.md': '# A\n\ntext' });
    tsm(['index', '--vault', vault], { env });
    tsm(['init', '--claude', '--vault', vault], { cwd: project, env });
    const now = Date.now();
    const line = (ago: number, msg: string) => `${new Date(now - ago).toISOString()} UserPromptSubmit session=abcd1234: ${msg}\n`;
    writeFileSync(
      join(vault, '.tsm', 'hook.log'),
      line(30 * 86_400_000, 'an old problem') + [5, 4, 3, 2, 1].map((n) => line(n * 60_000, `problem ${n}`)).join('') + line(1000, 'no index at x: run `tsm index` first'),
    );
    const hooks = doctor().report.problems.filter((p) => p.check === 'hooks');
    expect(hooks).toHaveLength(1);
    // Said as a log: when the latest was written, and that each may be fixed since.
    expect(hooks[0].message).toMatch(/^6 hook problems logged in the last 7 days in .*hook\.log, the latest just now; from the log, not checked now: each may be fixed since \(the last 3 of 6\):/);
    expect(hooks[0].message).toContain('problem 2');
    expect(hooks[0].message).toContain('problem 1');
    expect(hooks[0].message).not.toContain('problem 3');
    expect(hooks[0].message).not.toContain('an old problem');
    expect(hooks[0].fix).toContain('tsm index');
  });

  it('a very long hook.log line an older tsm wrote is quoted cut, with its length, in the text and the JSON', () => {
    // Before formatLogLine bounded a line (5de0eb4), a payload's 3 MB hook_event_name made a 3 MB line; it stays
    // in the log for its week, and doctor printed it whole: 3 MB of output in both forms.
    writeFiles(vault, { 'a.md': '# A\n\ntext' });
    tsm(['index', '--vault', vault], { env });
    const event = 'E'.repeat(3_000_000);
    writeFileSync(join(vault, '.tsm', 'hook.log'), `${new Date().toISOString()} ${event}: no index at x: run \`tsm index\` first\n${new Date().toISOString()} Stop: a short one\n`);
    const text = tsm(['doctor', '--vault', vault], { cwd: project, env });
    expect(text.stdout.length).toBeLessThan(20_000);
    expect(text.stdout).toMatch(/\n {10}\d{4}-\d\d-\d\dT\S+ E{100,}… \(\d{7} characters\)\n/);
    expect(text.stdout).toContain('Stop: a short one');
    const json = tsm(['doctor', '--json', '--vault', vault], { cwd: project, env });
    expect(json.stdout.length).toBeLessThan(20_000);
    const hooks = JSON.parse(json.stdout).problems.find((p: { check: string }) => p.check === 'hooks');
    expect(hooks.message).toMatch(/^2 hook problems logged/);
    expect(hooks.message).toContain('Stop: a short one');
  });

  it('a FIFO at hook.log or at a Claude Code settings file: doctor names it and init --claude goes on, neither waiting for good', () => {
    writeFiles(vault, { 'a.md': '# A\n\ntext' });
    tsm(['index', '--vault', vault], { env });
    const log = join(vault, '.tsm', 'hook.log');
    const settings = join(project, '.claude', 'settings.json');
    mkdirSync(dirname(settings));
    for (const fifo of [log, settings]) expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = tsm(['doctor', '--json', '--vault', vault], { cwd: project, env, timeoutMs: 8000 });
    expect(r.code, r.stderr).toBe(1); // the settings file Claude Code cannot read either is an error
    const problems = JSON.parse(r.stdout).problems as { check: string; severity: string; message: string; fix: string }[];
    expect(problems).toContainEqual(expect.objectContaining({ check: 'hooks', severity: 'warning', message: expect.stringMatching(/hook\.log is not a plain file .*: move it aside$/) }));
    expect(problems).toContainEqual(expect.objectContaining({ check: 'claude', message: `cannot read ${settings}: not a regular file (a pipe, a socket or a device)` }));
    const init = tsm(['init', '--claude', '--vault', vault], { cwd: project, env, timeoutMs: 8000 });
    expect(init.code, init.stderr).toBe(0); // it writes the local settings, beside the one it could not read
    expect(lstatSync(settings).isFIFO()).toBe(true);
  });

  it('a hook problem that a sync fixed is not reported once the index has synced; one after the sync is', async () => {
    // The prompt hook on a vault with no index logs "no index … run `tsm index` first"; doctor went on
    // reporting it, with the fix `tsm index`, for 7 days after the `tsm index` that fixed it.
    writeFiles(vault, { 'a.md': '# A\n\nLoRa text' });
    const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'tell me about LoRa', cwd: project, session_id: 's1' });
    expect(tsm(['hook', '--vault', vault], { cwd: project, env, input: prompt }).code).toBe(0);
    const log = join(vault, '.tsm', 'hook.log');
    const logged = readFileSync(log, 'utf8');
    expect(logged).toMatch(/no index at .*: run `tsm index` first/);
    // A line's time is to the second: the sync must come after that second to be known as later.
    const loggedAt = Date.parse(logged.slice(0, logged.indexOf(' ')));
    await waitFor(() => Date.now() >= loggedAt + 1100, 5000);
    const hookProblems = () =>
      (JSON.parse(tsm(['doctor', '--json', '--vault', vault], { cwd: project, env }).stdout).problems as { check: string; message: string }[]).filter((p) => p.check === 'hooks');
    expect(hookProblems()).toHaveLength(1); // no sync yet: still current
    expect(tsm(['index', '--vault', vault], { env }).code).toBe(0);
    expect(hookProblems()).toEqual([]);
    // The same problem logged after the sync is current again, and the one before is counted as left out.
    writeFileSync(log, `${new Date().toISOString()} UserPromptSubmit session=s2: index locked: run \`tsm index\` once the other writer is done\n`, { flag: 'a' });
    const hooks = hookProblems();
    expect(hooks).toHaveLength(1);
    expect(hooks[0].message).toMatch(/^1 hook problem logged in the last 7 days in .*hook\.log, the latest just now \(and 1 the index's last sync fixed, left out\); from the log, not checked now: it may be fixed since:/);
    expect(hooks[0].message).toContain('index locked');
    expect(hooks[0].message).not.toContain('no index at');
  });

  it('a SessionStart background sync that indexed the day’s edits is no hook problem', async () => {
    // Without `tsm watch`, each session's SessionStart syncs the vault and logs what it indexed; doctor
    // counted those lines as "hook problems" (a warning) for a week, the fix `tsm index` among them.
    writeFiles(vault, { 'a.md': '# A\n\ntext' });
    tsm(['index', '--vault', vault], { env });
    writeFiles(vault, { 'b.md': '# B\n\nwritten today' });
    const payload = JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: project, session_id: 's1' });
    expect(tsm(['hook', '--vault', vault], { cwd: project, env, input: payload }).code).toBe(0);
    const log = join(vault, '.tsm', 'hook.log');
    await waitFor(() => existsSync(log) && /background index: 1 added/.test(readFileSync(log, 'utf8')), 20_000);
    const hookProblems = () => JSON.parse(tsm(['doctor', '--json', '--vault', vault], { cwd: project, env }).stdout).problems.filter((p: { check: string }) => p.check === 'hooks');
    expect(hookProblems()).toEqual([]);
    // A real problem beside it is still reported, and counted alone.
    writeFileSync(log, `${new Date().toISOString()} UserPromptSubmit session=s1: deadline of 1500 ms passed\n`, { flag: 'a' });
    const hooks = hookProblems();
    expect(hooks.map((p: { message: string }) => p.message.split('\n')[0])).toEqual([expect.stringMatching(/^1 hook problem logged in the last 7 days/)]);
    expect(hooks[0].message).not.toContain('background index');
  });

  it('transcript lines a session hook skipped are information about sessions, not a hook problem', () => {
    writeFiles(vault, { 'a.md': '# A\n\ntext' });
    tsm(['index', '--vault', vault], { env });
    const log = join(vault, '.tsm', 'hook.log');
    const now = new Date().toISOString();
    writeFileSync(log, `${now} Stop session=s1: /t/s1.jsonl: 2 lines are not JSON objects and were skipped (first: line 17)\n`, { flag: 'a' });
    writeFileSync(log, `${now} Stop session=s2: /t/s2.jsonl: 1 line is not a JSON object and was skipped (first: line 3)\n`, { flag: 'a' });
    const problems = () => JSON.parse(tsm(['doctor', '--json', '--vault', vault], { cwd: project, env }).stdout).problems as { check: string; severity: string; message: string }[];
    expect(problems().filter((p) => p.check === 'hooks')).toEqual([]);
    const sessions = problems().filter((p) => p.check === 'sessions');
    expect(sessions).toHaveLength(1);
    expect(sessions[0].severity).toBe('info');
    expect(sessions[0].message).toMatch(/^the session hooks skipped lines that are not JSON objects in 2 transcript reads in the last 7 days/);
    expect(sessions[0].message).toContain('/t/s2.jsonl: 1 line is not a JSON object and was skipped (first: line 3)');
    // A hook failing beside them is still one.
    writeFileSync(log, `${now} UserPromptSubmit session=s1: deadline of 1500 ms passed\n`, { flag: 'a' });
    expect(problems().filter((p) => p.check === 'hooks').map((p) => p.message.split('\n')[0])).toEqual([expect.stringMatching(/^1 hook problem logged/)]);
  });

  it('says how many more there are when it shows only part of a list', () => {
    const links = Array.from({ length: 60 }, (_, i) => `[[missing-${i}]]`).join('\n');
    writeFiles(vault, { 'a.md': `# A\n\n${links}\n` });
    tsm(['index', '--vault', vault], { env });
    const problems = tsm(['doctor', '--json', '--vault', vault], { cwd: project, env });
    const report = JSON.parse(problems.stdout);
    expect(report.problems.filter((p: { check: string; severity: string }) => p.check === 'links' && p.severity === 'warning')).toHaveLength(50);
    expect(report.problems).toContainEqual(expect.objectContaining({ check: 'links', message: '… and 10 more unresolved links (50 of 60 shown above, the notes changed last first)' }));
  });
});
