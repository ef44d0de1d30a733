// The real Claude Code CLI for tests: installed from npm, one version per folder, into a cache that
// outlives the run ($TSM_CLAUDE_CACHE, default <tmp>/tsm-claude-code), and run with a HOME and
// CLAUDE_CONFIG_DIR of the test's own and no network but 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The oldest Claude Code with plugins and hooks (2.0.12 added `claude plugin` and `/plugin`; 2.0.11 has
 * neither), the version issue 16 was found with (2.0.76: it ignores exec-form "args", and its manifest
 * schema rejects keys it does not know, which 2.0.12 and 2.1 accept), and the newest at the time of
 * writing. TSM_CLAUDE_VERSIONS=a,b,… overrides them.
 */
export const OLDEST_SUPPORTED = '2.0.12';
export const STRICT_2_0 = '2.0.76';
export const NEWEST_TESTED = '2.1.331';

export function versionsUnderTest(): string[] {
  const v = process.env.TSM_CLAUDE_VERSIONS;
  return v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [OLDEST_SUPPORTED, STRICT_2_0, NEWEST_TESTED];
}

export function cacheDir(): string {
  return process.env.TSM_CLAUDE_CACHE || join(tmpdir(), 'tsm-claude-code');
}

export type Claude = { bin: string; version: string; installMs: number } | { skip: string };

/** The `claude` executable of `version`, installing it into the cache if need be; or why it cannot be had. */
export function ensureClaude(version: string): Claude {
  if (process.env.TSM_SKIP_CLAUDE) return { skip: 'TSM_SKIP_CLAUDE is set' };
  const prefix = join(cacheDir(), version);
  const bin = join(prefix, 'node_modules', '.bin', 'claude');
  const t0 = Date.now();
  if (!works(bin, version)) {
    mkdirSync(prefix, { recursive: true });
    // Not --ignore-scripts: from 2.1 on, the package's postinstall puts the platform's native binary in
    // place of bin/claude.exe (a stub that only prints an error).
    const r = spawnSync('npm', ['install', '--prefix', prefix, `@anthropic-ai/claude-code@${version}`, '--no-audit', '--no-fund', '--no-save', '--fetch-retries=1', '--fetch-timeout=30000'], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (r.status !== 0) {
      const why = (r.error?.message ?? `${r.stderr}`.split('\n').filter((l) => /error/i.test(l)).slice(0, 3).join(' ')) || `exit ${r.status}`;
      return { skip: `cannot install @anthropic-ai/claude-code@${version} from npm (${why.trim()})` };
    }
    if (!works(bin, version)) return { skip: `@anthropic-ai/claude-code@${version} installed into ${prefix} but \`claude --version\` does not run` };
  }
  return { bin, version, installMs: Date.now() - t0 };
}

function works(bin: string, version: string): boolean {
  if (!existsSync(bin)) return false;
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000, env: isolatedEnv(join(cacheDir(), '.probe'), {}) });
  return r.status === 0 && r.stdout.includes(version);
}

/**
 * An environment with nothing of the developer's: HOME and CLAUDE_CONFIG_DIR under `root`, no auto-update,
 * telemetry, error reports or other traffic, and a PATH of system tools plus `extraPath`.
 */
export function isolatedEnv(root: string, extra: Record<string, string>, extraPath: string[] = []): NodeJS.ProcessEnv {
  const home = join(root, 'home');
  const config = join(root, 'claude-config');
  // Claude Code 2.1 keeps per-project folders under $TMPDIR/claude-<uid>: inside the run's folder, they
  // go with it.
  const tmp = join(root, 'tmp');
  for (const dir of [home, config, tmp]) mkdirSync(dir, { recursive: true });
  return {
    PATH: [...extraPath, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    CLAUDE_CONFIG_DIR: config,
    TMPDIR: tmp,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    ...extra,
  };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the CLI without a terminal (stdin closed), killing it after `timeoutMs`. */
export function runClaude(bin: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliRun> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** Whether this version has `claude plugin marketplace add` and `claude plugin install` (2.0.20 has; 2.0.14 has not). */
export function hasPluginInstallCommands(bin: string, env: NodeJS.ProcessEnv): boolean {
  const r = spawnSync(bin, ['plugin', '--help'], { encoding: 'utf8', timeout: 60_000, env });
  return /\bmarketplace\b/.test(r.stdout) && /\binstall\b/.test(r.stdout);
}

/**
 * Installs `plugin` from the marketplace at `repo` (a checkout of tsm), as a user would: `claude plugin
 * marketplace add` and `install`; on versions that have only the interactive /plugin menu (2.0.12, 2.0.14),
 * the files that menu writes (the same files `claude plugin install` of 2.0.20 writes).
 */
export async function installFromMarketplace(bin: string, env: NodeJS.ProcessEnv, cwd: string, repo: string, plugin: string): Promise<void> {
  if (hasPluginInstallCommands(bin, env)) {
    for (const args of [['plugin', 'marketplace', 'add', repo], ['plugin', 'install', `${plugin}@the-space-memory`]]) {
      const r = await runClaude(bin, args, { cwd, env });
      if (r.code !== 0) throw new Error(`claude ${args.join(' ')} failed (${r.code}): ${r.stdout}${r.stderr}`);
    }
    return;
  }
  const config = env.CLAUDE_CONFIG_DIR as string;
  mkdirSync(join(config, 'plugins'), { recursive: true });
  writeFileSync(
    join(config, 'plugins', 'known_marketplaces.json'),
    JSON.stringify({ 'the-space-memory': { source: { source: 'directory', path: repo }, installLocation: repo, lastUpdated: new Date().toISOString() } }),
  );
  writeFileSync(join(config, 'settings.json'), JSON.stringify({ enabledPlugins: { [`${plugin}@the-space-memory`]: true } }));
}
