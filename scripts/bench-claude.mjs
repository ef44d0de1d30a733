// npm run bench:claude -- [--claude VERSION] [--corpus DIR|TARBALL] [--modes none,command,warm] [--keep]
//
// What the user feels of the prompt hook: the time from Claude Code taking a prompt to its request reaching
// the model API, measured with the real `claude` CLI (from npm, test/claude-e2e/claude-cli.ts) against the
// fake Messages API on 127.0.0.1 (test/claude-e2e/fake-anthropic.mjs, which stamps each request on arrival),
// on the handbook corpus, for the bench's 20 prompts (bench/queries.ts), in three set-ups:
//
//   none     no tsm at all
//   command  the tsm plugin: UserPromptSubmit runs `tsm hook`, a new process per prompt
//   warm     the tsm-warm plugin: UserPromptSubmit is an mcp_tool call of the running `tsm serve`
//
// Two figures each, the modes interleaved prompt by prompt (this machine's speed drifts by the hour):
//
//   start    `claude -p PROMPT` spawned → its request received: a whole new session per prompt, Claude
//            Code's own start-up and (with a plugin) tsm serve's start included.
//   session  one session (`claude -p --input-format stream-json`), a warm-up prompt first, then each
//            prompt written to its stdin → its request received: a prompt typed into a running session.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, cpSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { startFakeAnthropic, textsOf } from '../test/claude-e2e/fake-anthropic.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSM = join(ROOT, 'bin', 'tsm');
const { values } = parseArgs({
  options: {
    claude: { type: 'string', default: '2.1.331' },
    corpus: { type: 'string', default: resolve(ROOT, '../shared/corpora/handbook-ja.tar.gz') },
    modes: { type: 'string', default: 'none,command,warm' },
    keep: { type: 'boolean', default: false },
  },
});
const log = (line) => process.stderr.write(`bench:claude: ${line}\n`);

// The TypeScript helpers (the CLI installer, the bench prompts), bundled for this script: no build step of
// their own, and no vitest (which test/helpers pulls in).
const work = realpathSync(mkdtempSync(join(tmpdir(), 'tsm-bench-claude-')));
const bundle = join(work, 'helpers.mjs');
await build({
  stdin: { contents: "export * from './test/claude-e2e/claude-cli.ts'; export { QUERIES } from './bench/queries.ts';", resolveDir: ROOT, loader: 'ts' },
  bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning',
});
const { ensureClaude, isolatedEnv, installFromMarketplace } = await import(pathToFileURL(bundle).href);
const { QUERIES } = await import(pathToFileURL(bundle).href);

const claude = ensureClaude(values.claude);
if ('skip' in claude) throw new Error(claude.skip);
const modes = values.modes.split(',');
const PLUGIN = { none: null, command: 'tsm', warm: 'tsm-warm' };

// The corpus, extracted and indexed as `npm run bench` does.
const vault = prepareCorpus(values.corpus, work);
const t0 = performance.now();
run(process.execPath, [TSM, 'index', '--vault', vault]);
log(`indexed ${vault} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const fake = await startFakeAnthropic();
const setups = {};
for (const mode of modes) {
  const root = join(work, mode);
  const project = join(root, 'project');
  const binDir = join(root, 'bin');
  mkdirSync(project, { recursive: true });
  mkdirSync(binDir);
  symlinkSync(TSM, join(binDir, 'tsm'));
  const env = isolatedEnv(root, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'dummy', TSM_VAULT: vault }, [binDir]);
  if (PLUGIN[mode]) await installFromMarketplace(claude.bin, env, project, ROOT, PLUGIN[mode]);
  setups[mode] = { env, project };
}
const load = [loadavg()[0]];

/** The first streamed request after `since` whose messages hold `prompt` (one prompt is asked at a time). */
async function arrival(prompt, since, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const hit = fake.requests.find(
      (r) => r.at >= since && r.path === '/v1/messages' && r.body?.stream && Array.isArray(r.body.messages) && textsOf({ messages: r.body.messages }).some((t) => t.includes(prompt)),
    );
    if (hit) return hit;
    if (performance.now() > deadline) throw new Error(`no request for "${prompt.slice(0, 40)}" within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The request carries the hook's context: proof that the set-up did what it says. */
const injected = (req) => textsOf(req.body).some((t) => t.includes('<knowledge_search'));

// 1. start: a new `claude -p` per prompt.
const start = Object.fromEntries(modes.map((m) => [m, []]));
const startInjected = Object.fromEntries(modes.map((m) => [m, 0]));
for (const prompt of QUERIES) {
  for (const mode of modes) {
    const { env, project } = setups[mode];
    const spawned = performance.now();
    const child = spawn(claude.bin, ['-p', prompt], { cwd: project, env, stdio: ['ignore', 'ignore', 'ignore'] });
    const closed = new Promise((r) => child.on('close', r));
    const req = await arrival(prompt, spawned);
    start[mode].push(req.at - spawned);
    if (injected(req)) startInjected[mode]++;
    await closed;
  }
}
load.push(loadavg()[0]);

// 2. session: one running session per mode, prompts written to it one at a time.
const sessions = {};
for (const mode of modes) {
  const { env, project } = setups[mode];
  const child = spawn(claude.bin, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], { cwd: project, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const s = { child, out: '', results: 0, times: [], injected: 0 };
  child.stdout.setEncoding('utf8').on('data', (d) => {
    s.out += d;
    s.results = (s.out.match(/"type":"result"/g) ?? []).length;
  });
  sessions[mode] = s;
}
async function ask(s, prompt) {
  const want = s.results + 1;
  const written = performance.now();
  s.child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } })}\n`);
  const req = await arrival(prompt, written);
  while (s.results < want) await new Promise((r) => setTimeout(r, 5));
  return { ms: req.at - written, injected: injected(req) };
}
for (const mode of modes) await ask(sessions[mode], 'Hello: this first prompt starts the session and its MCP servers.');
for (const prompt of QUERIES) {
  for (const mode of modes) {
    const r = await ask(sessions[mode], prompt);
    sessions[mode].times.push(r.ms);
    if (r.injected) sessions[mode].injected++;
  }
}
for (const mode of modes) {
  sessions[mode].child.stdin.end();
  await new Promise((r) => sessions[mode].child.on('close', r));
}
load.push(loadavg()[0]);
await fake.close();

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const r1 = (x) => Math.round(x * 10) / 10;
const result = {
  claude: values.claude,
  corpus: values.corpus,
  prompts: QUERIES.length,
  load_1min: load.map(r1),
  modes: Object.fromEntries(
    modes.map((m) => [
      m,
      {
        start_p50_ms: r1(pct(start[m], 50)),
        start_p95_ms: r1(pct(start[m], 95)),
        start_injected: startInjected[m],
        session_p50_ms: r1(pct(sessions[m].times, 50)),
        session_p95_ms: r1(pct(sessions[m].times, 95)),
        session_injected: sessions[m].injected,
      },
    ]),
  ),
};
console.log('| set-up | start p50 / p95 (ms) | in session p50 / p95 (ms) | prompts with <knowledge_search> (start, session) |');
console.log('|---|---|---|---|');
for (const [m, r] of Object.entries(result.modes)) {
  console.log(`| ${m} | ${r.start_p50_ms} / ${r.start_p95_ms} | ${r.session_p50_ms} / ${r.session_p95_ms} | ${r.start_injected}, ${r.session_injected} of ${QUERIES.length} |`);
}
console.log(JSON.stringify(result));
if (values.keep) log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
}

function prepareCorpus(corpus, into) {
  if (!existsSync(corpus)) throw new Error(`corpus not found: ${corpus} (--corpus DIR|TARBALL)`);
  const target = join(into, 'vault');
  if (statSync(corpus).isDirectory()) {
    cpSync(corpus, target, { recursive: true });
    return target;
  }
  run('tar', ['-xzf', corpus, '-C', into]);
  const inner = ['handbook', 'vault'].map((d) => join(into, d)).find((d) => existsSync(d));
  if (!inner) throw new Error(`the tarball ${corpus} holds no handbook/ or vault/ folder`);
  return inner;
}
