// `tsm model setup`: the one command that adds the ONNX runtime, into a folder tsm owns (runtime.ts finds
// it there). npm does the work, so proxies, registries and caches are the user's npm settings.
//
// Install scripts are skipped: onnxruntime-node's only script fetches a CUDA provider on Linux x64 from
// outside the npm registry (ONNXRUNTIME_NODE_INSTALL=skip says the same to it); the CPU binaries for
// Linux, macOS and Windows ship inside the package.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../text/shell-quote.js';
import { EmbedError } from './errors.js';
import { findRuntime, loadRuntime, ORT_PACKAGE, ORT_VERSION, runtimeDir, type RuntimeLocation } from './runtime.js';

/** The npm arguments setup runs, in `dir`. */
function setupArgs(dir: string): string[] {
  return ['install', `${ORT_PACKAGE}@${ORT_VERSION}`, '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev'];
}

/** The environment setup gives npm beside the user's (the file's head says why). */
const SETUP_ENV = { ONNXRUNTIME_NODE_INSTALL: 'skip' } as const;

/**
 * The command line setup runs, to run by hand: shown by `tsm model setup --dry-run`, in the docs, and when
 * npm cannot be started. That last one lacked the ONNXRUNTIME_NODE_INSTALL=skip the other showed. Each word
 * is quoted for the shell it is pasted into: a cache folder with a space (`TSM_CACHE_DIR=/tmp/x y`) made
 * `--prefix /tmp/x y/runtime`, which installed into ./y/runtime, and a `$` in it was expanded.
 */
export function setupCommandLine(dir: string): string {
  return `${Object.entries(SETUP_ENV).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ')} npm ${setupArgs(dir).map(shellQuote).join(' ')}`;
}

export interface SetupOptions {
  env?: NodeJS.ProcessEnv;
  /** Remove the folder first. */
  force?: boolean;
  /** npm's output goes here (the CLI passes stderr). */
  stdio?: 'inherit' | 'ignore';
}

export async function setupRuntime(o: SetupOptions = {}): Promise<RuntimeLocation> {
  const env = o.env ?? process.env;
  const dir = runtimeDir(env);
  if (o.force) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Its own package.json, so npm installs here and not into a project above the folder.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'tsm-runtime', private: true, description: 'the ONNX runtime for tsm semantic search, installed by `tsm model setup`' }, null, 2) + '\n',
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, setupArgs(dir), {
    env: { ...env, ...SETUP_ENV },
    // npm's output goes to our stderr (fd 2): stdout is for the command's one-line result.
    stdio: o.stdio === 'ignore' ? 'ignore' : ['ignore', 2, 2],
    shell: process.platform === 'win32',
  });
  if (r.error) throw new EmbedError(`could not run npm (${r.error.message}): install Node.js with npm, or run \`${setupCommandLine(dir)}\` yourself`);
  if (r.status !== 0) throw new EmbedError(`npm could not install ${ORT_PACKAGE}@${ORT_VERSION} into ${dir} (exit ${r.status}; its messages are above): fix what npm says and run \`tsm model setup --force\``);
  const search = [{ from: 'setup' as const, base: join(dir, 'package.json') }];
  const found = findRuntime(search);
  if (!found) throw new EmbedError(`npm finished, but ${dir} holds no ${ORT_PACKAGE}: run \`tsm model setup --force\``);
  pruneOtherPlatforms(found.dir);
  await loadRuntime(search); // imports it once: a runtime that does not load fails here, not at the first index
  return found;
}

/**
 * The package ships the native runtime for five platforms (288 MB); the binding loads only
 * bin/napi-v6/<platform>/<arch>/. Removing the other four leaves 47 MB on Linux x64 (measured: 291 → 47 MB).
 * Only when this platform's folder is there: an unknown layout is left whole.
 */
export function pruneOtherPlatforms(pkgDir: string): void {
  const bins = join(pkgDir, 'bin', 'napi-v6');
  if (!existsSync(join(bins, process.platform, process.arch))) return;
  for (const platform of readdirSync(bins)) {
    if (platform !== process.platform) {
      rmSync(join(bins, platform), { recursive: true, force: true });
      continue;
    }
    for (const arch of readdirSync(join(bins, platform))) if (arch !== process.arch) rmSync(join(bins, platform, arch), { recursive: true, force: true });
  }
}
