// The tsm plugin driven by the real Claude Code CLI (oldest supported and newest version, from npm) through
// `claude -p`, against a fake of the Anthropic Messages API on 127.0.0.1 that records every request. No
// network but loopback; HOME and CLAUDE_CONFIG_DIR are temporary folders. Opt-in: `npm run test:claude`
// (it installs the CLIs into $TSM_CLAUDE_CACHE, default <tmp>/tsm-claude-code, on first use).
//
// Two assertions depend on work of other helpers that may not have landed yet, and say so in their names:
// - first use (a vault with no index gets <knowledge_search> in its very first session) needs SessionStart to
//   build the index (a detached sync, helper `hooks`);
// - no self-echo (the second session's question is answered by the knowledge note, not by the first
//   session's note that only repeats the question) needs the session-note ranking rules (helper `sessions`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_MCP_TOOL_HOOKS, handlersOf, hasMcpToolHooks, isTsmHook, isTsmWarmHook } from '../../src/hooks/wiring.js';
import { TSM } from '../helpers/cli.js';
import { ensureClaude, isolatedEnv, runClaude, versionsUnderTest, type CliRun } from './claude-cli.js';
// @ts-expect-error: a plain .mjs module (also usable from scripts), no type declarations
import { REPLY_TEXT, startFakeAnthropic, textsOf } from './fake-anthropic.mjs';
import { hookLog, installPlugin, KNOWLEDGE_NOTE, knowledgeSearch, mainRequests, olderThan, QUESTION, removeRun, sessionNotes, userFolders, type Fake } from './harness.js';

describe.each(versionsUnderTest())('Claude Code %s with the tsm plugin', (version) => {
  let skip: string | null = null;
  let bin = '';
  let root = '';
  let vault = '';
  let project = '';
  let env: NodeJS.ProcessEnv = {};
  let fake: Fake;
  const timings: string[] = [];
  let session1: CliRun;
  let session1From = 0;
  let session2: CliRun;
  let session2From = 0;
  let continued: CliRun;
  let continuedFrom = 0;
  let notesAfter2: string[] = [];
  let session3: CliRun;
  let session3From = 0;
  let notesAfter1: string[] = [];
  let logBefore2 = 0;

  beforeAll(async () => {
    const t0 = Date.now();
    const claude = ensureClaude(version);
    if ('skip' in claude) {
      skip = claude.skip;
      process.stdout.write(`skipped: ${skip}\n`);
      return;
    }
    bin = claude.bin;
    timings.push(`CLI ready ${claude.installMs} ms`);
    root = realpathSync(mkdtempSync(join(tmpdir(), `tsm-claude-${version}-`)));
    let binDir: string;
    ({ vault, project, binDir } = userFolders(root));
    fake = (await startFakeAnthropic()) as Fake;
    env = isolatedEnv(root, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'dummy', TSM_VAULT: vault }, [binDir]);

    // Install the plugin from this repository's marketplace, as a user would.
    const t1 = Date.now();
    await installPlugin(bin, env, project);
    timings.push(`plugin install ${Date.now() - t1} ms`);

    // Session 1: first use, the vault has no index.
    session1From = fake.requests.length;
    session1 = await runClaude(bin, ['-p', QUESTION], { cwd: project, env });
    timings.push(`session 1 ${session1.ms} ms`);
    notesAfter1 = sessionNotes(vault);

    // Session 2, the same question. If the first session built no index (first use not fixed yet), build
    // it here, so that the self-echo check below tests ranking, not first use.
    if (!existsSync(join(vault, '.tsm', 'index.db'))) execFileSync(process.execPath, [TSM, 'index', '--vault', vault], { env, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1500)); // a detached SessionEnd ingest of session 1 may still run
    logBefore2 = hookLog(vault).length;
    session2From = fake.requests.length;
    session2 = await runClaude(bin, ['-p', QUESTION], { cwd: project, env });
    timings.push(`session 2 ${session2.ms} ms`);
    notesAfter2 = sessionNotes(vault);

    // Session 2, continued (`--continue`: the same session, as its transcript and session note show): the
    // same question again, now that this session's own note exists and is indexed.
    continuedFrom = fake.requests.length;
    continued = await runClaude(bin, ['-p', '--continue', QUESTION], { cwd: project, env });
    timings.push(`session 2 continued ${continued.ms} ms`);

    // Session 3: `tsm` is not on PATH (uninstalled, or a PATH Claude Code does not share). Every hook's
    // shell fails with 127; Claude Code must still take the prompt.
    session3From = fake.requests.length;
    session3 = await runClaude(bin, ['-p', QUESTION], { cwd: project, env: { ...env, PATH: (env.PATH ?? '').split(':').filter((d) => d !== binDir).join(':') } });
    timings.push(`session 3 ${session3.ms} ms`);
    timings.push(`total ${Date.now() - t0} ms`);
  }, 900_000);

  afterAll(async () => {
    if (!skip) process.stdout.write(`Claude Code ${version}: ${timings.join(', ')}\n`);
    await fake?.close();
    // TSM_KEEP_E2E=1 keeps the run's folder, with every request the fake received, for a post-mortem.
    if (root && process.env.TSM_KEEP_E2E) writeFileSync(join(root, 'requests.json'), JSON.stringify(fake?.requests ?? [], null, 1));
    else if (root) removeRun(root);
  });

  it('answers through the fake API: the prompt reaches the model', (ctx) => {
    if (skip) return ctx.skip();
    expect(session1.code, session1.stderr).toBe(0);
    expect(session1.stdout).toContain(REPLY_TEXT);
    expect(mainRequests(fake, session1From, session2From).length).toBeGreaterThan(0);
    // Nothing but the Messages API was asked for (an endpoint the CLI starts to need shows up here).
    expect(fake.requests.filter((r) => !r.path.startsWith('/v1/messages')).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("offers the plugin's MCP tools to the model", (ctx) => {
    if (skip) return ctx.skip();
    expect(JSON.stringify(mainRequests(fake, session1From, session2From)[0]?.body)).toContain('mcp__plugin_tsm_tsm__search');
  });

  it('[depends on the first-use sync, helper `hooks`] injects <knowledge_search> on first use, with no index yet', (ctx) => {
    if (skip) return ctx.skip();
    const found = knowledgeSearch(mainRequests(fake, session1From, session2From)[0]);
    expect(found, `hook.log:\n${hookLog(vault).join('\n')}`).not.toBeNull();
    expect(found?.sources[0]).toBe(KNOWLEDGE_NOTE);
  });

  it('turns the session into a session note in the vault', (ctx) => {
    if (skip) return ctx.skip();
    expect(notesAfter1).toHaveLength(1);
    expect(readFileSync(join(vault, notesAfter1[0]), 'utf8')).toContain(QUESTION);
  });

  it('second session: the prompt carries <knowledge_search>, and its hooks log no problem', (ctx) => {
    if (skip) return ctx.skip();
    expect(session2.code, session2.stderr).toBe(0);
    const found = knowledgeSearch(mainRequests(fake, session2From, continuedFrom)[0]);
    expect(found, `hook.log:\n${hookLog(vault).join('\n')}`).not.toBeNull();
    expect(found?.sources).toContain(KNOWLEDGE_NOTE);
    expect(hookLog(vault).slice(logBefore2)).toEqual([]);
  });

  it("second session: SessionStart's recent context reaches the model", (ctx) => {
    if (skip) return ctx.skip();
    const text = mainRequests(fake, session2From, continuedFrom).flatMap((r) => textsOf(r.body)).join('\n');
    expect(text).toContain('tsm: recent context');
  });

  it("[depends on the self-echo rules, helper `sessions`] a continued session never gets its own session note injected", (ctx) => {
    if (skip) return ctx.skip();
    expect(continued.code, continued.stderr).toBe(0);
    const own = notesAfter2.filter((n) => !notesAfter1.includes(n));
    expect(own).toHaveLength(1);
    const found = knowledgeSearch(mainRequests(fake, continuedFrom, session3From).at(-1));
    expect(found?.sources ?? [], found?.block).not.toContain(own[0]);
    expect(found?.sources[0], found?.block).toBe(KNOWLEDGE_NOTE);
  });

  it('without `tsm` on PATH the hooks fail and the prompt still goes through (fail open)', (ctx) => {
    if (skip) return ctx.skip();
    if (session3.code !== 0 && olderThan(version, '2.0.59')) {
      // Measured: 2.0.12 to 2.0.58 may die of an unhandled EPIPE when a hook's command does not exist (when
      // the shell exits before Claude Code has written the payload to its stdin); 2.0.59 and later carry
      // on. Any missing hook command does this to them, not only tsm's; `tsm doctor` checks PATH.
      expect(session3.stderr).toMatch(/EPIPE/);
      return;
    }
    expect(session3.code, session3.stderr).toBe(0);
    expect(session3.stdout).toContain(REPLY_TEXT);
    const sent = mainRequests(fake, session3From);
    expect(sent.length).toBeGreaterThan(0);
    expect(knowledgeSearch(sent[0])).toBeNull();
  });

  it("[depends on the self-echo rules, helper `sessions`] second session: the knowledge note answers, not the first session's note", (ctx) => {
    if (skip) return ctx.skip();
    const found = knowledgeSearch(mainRequests(fake, session2From, continuedFrom)[0]);
    expect(found?.sources[0], found?.block).toBe(KNOWLEDGE_NOTE);
    const echo = notesAfter1[0];
    const rank = found?.sources.indexOf(echo) ?? -1;
    expect(rank === -1 || rank > found!.sources.indexOf(KNOWLEDGE_NOTE), found?.block).toBe(true);
  });
});

describe.each(versionsUnderTest())('Claude Code %s wired by `tsm init --claude` (local scope, no plugin)', (version) => {
  let skip: string | null = null;
  let root = '';
  let fake: Fake;
  let run: CliRun;
  let from = 0;
  let promptHandlers: unknown[] = [];

  beforeAll(async () => {
    const claude = ensureClaude(version);
    if ('skip' in claude) {
      skip = claude.skip;
      return;
    }
    root = realpathSync(mkdtempSync(join(tmpdir(), `tsm-claude-init-${version}-`)));
    const { vault, project, binDir } = userFolders(root);
    fake = (await startFakeAnthropic()) as Fake;
    // No TSM_VAULT: the hooks find the vault through the `--vault` that `tsm init --claude` wrote.
    const env = isolatedEnv(root, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'dummy' }, [binDir]);
    execFileSync(process.execPath, [TSM, 'index', '--vault', vault], { env, stdio: 'ignore' });
    // `claude` on PATH: `tsm init --claude` wires the prompt hook for the version it reports.
    execFileSync(process.execPath, [TSM, 'init', '--claude', '--vault', vault], { cwd: project, env: { ...env, PATH: `${dirname(claude.bin)}:${env.PATH}` }, stdio: 'ignore' });
    promptHandlers = handlersOf(JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')), 'UserPromptSubmit');
    from = fake.requests.length;
    run = await runClaude(claude.bin, ['-p', QUESTION], { cwd: project, env });
    process.stdout.write(`Claude Code ${version}, tsm init --claude: session ${run.ms} ms\n`);
  }, 900_000);

  afterAll(async () => {
    await fake?.close();
    if (root) removeRun(root);
  });

  it('runs the hooks from .claude/settings.local.json: <knowledge_search> reaches the model, once', (ctx) => {
    if (skip) return ctx.skip();
    expect(run.code, run.stderr).toBe(0);
    const found = knowledgeSearch(mainRequests(fake, from)[0]);
    expect(found?.sources[0]).toBe(KNOWLEDGE_NOTE);
    expect(textsOf(mainRequests(fake, from)[0]?.body).join('\n').match(/<knowledge_search /g)).toHaveLength(1);
  });

  it(`wires the prompt hook for the version \`claude --version\` reports: an mcp_tool call of the local-scope tsm serve from ${FIRST_MCP_TOOL_HOOKS}, the command before`, (ctx) => {
    if (skip) return ctx.skip();
    expect(promptHandlers).toHaveLength(1);
    expect(isTsmWarmHook(promptHandlers[0])).toBe(hasMcpToolHooks(version));
    expect(isTsmHook(promptHandlers[0])).toBe(!hasMcpToolHooks(version));
  });

  it('starts the local-scope MCP server and offers its tools', (ctx) => {
    if (skip) return ctx.skip();
    expect(JSON.stringify(mainRequests(fake, from)[0]?.body)).toContain('mcp__tsm__search');
  });
});
