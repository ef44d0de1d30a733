// tsm model list | path | pull | setup: the neural embedding model and its runtime (docs/embeddings.md).
// The one place tsm downloads anything, and only when the user runs `tsm model pull` or `tsm model setup`.
import { spawnSync } from 'node:child_process';
import { pullModel } from '../embed/download.js';
import { KNOWN_MODELS, knownModel, pulledModelDir } from '../embed/models.js';
import { ORT_PACKAGE, ORT_VERSION, runtimeDir } from '../embed/runtime.js';
import { embeddingStatus, type ModelSettings } from '../embed/status.js';
import { setupCommandLine, setupRuntime } from '../embed/setup.js';
import { DEFAULT_MODEL, envSetting, loadConfig, NoVaultError, optionalDir } from '../vault/config.js';
import { printJson } from './args.js';
import { progressBar } from './progress.js';
import { UsageError } from './run.js';
import { writeErr, writeOut } from './stdio.js';
import { count } from '../text/count.js';

/**
 * The model settings: --model / --model-dir, else the vault's config (TSM_MODEL, TSM_MODEL_DIR,
 * .tsm/config.json) when a vault is named or found, else the default model. Models are per user, not per
 * vault: these commands work outside any vault. A vault that is named but missing, or whose config.json is
 * bad, stops them as it stops every command: quietly using the default model there hid the error.
 */
export function modelSettings(argv: Record<string, unknown>): ModelSettings {
  // Outside a vault, and for --model-dir, a folder is read from the current folder, `~` being your home, by the
  // rule every folder setting follows (README, "Paths"): used as written, `TSM_MODEL_DIR='~/m'` and
  // `--model-dir=~/m` named a folder `~` here, which `tsm model path` printed as missing.
  const here = process.cwd();
  let base: ModelSettings = {
    model: envSetting(process.env, 'TSM_MODEL') ?? DEFAULT_MODEL,
    modelDir: optionalDir('TSM_MODEL_DIR', envSetting(process.env, 'TSM_MODEL_DIR'), here, process.env),
  };
  try {
    const cfg = loadConfig({ vaultFlag: typeof argv.vault === 'string' ? argv.vault : undefined });
    base = { model: cfg.model, modelDir: cfg.modelDir };
  } catch (err) {
    if (!(err instanceof NoVaultError)) throw err;
  }
  const model = typeof argv.model === 'string' ? argv.model : base.model;
  const modelDir =
    typeof argv['model-dir'] === 'string' ? optionalDir('--model-dir', argv['model-dir'], here, process.env) : typeof argv.model === 'string' ? null : base.modelDir;
  return { model, modelDir };
}

export async function run(argv: Record<string, unknown>): Promise<void> {
  const action = String(argv.action);
  if ((action === 'pull' || action === 'setup') && withExtraCaCerts()) return;
  if (action === 'list') return list(argv);
  if (action === 'path') return path(argv);
  if (action === 'pull') return pull(argv);
  if (action === 'setup') return setup(argv);
  throw new UsageError(`tsm model ${action}: name list, path, pull or setup`);
}

/**
 * bin/tsm drops NODE_EXTRA_CA_CERTS to start fast (it keeps it as TSM_EXTRA_CA_CERTS), and Node reads it only
 * as it starts. The two commands that go online run again with it, so that a network whose TLS proxy
 * needs that certificate (a company's, this project's build machines') works for them as for npm.
 * True when this process ran the command that way.
 */
function withExtraCaCerts(): boolean {
  const ca = process.env.TSM_EXTRA_CA_CERTS;
  if (!ca || process.env.NODE_EXTRA_CA_CERTS) return false;
  const r = spawnSync(process.execPath, process.argv.slice(1), { stdio: 'inherit', env: { ...process.env, NODE_EXTRA_CA_CERTS: ca } });
  process.exitCode = r.status ?? 1;
  return true;
}

function list(argv: Record<string, unknown>): void {
  const settings = modelSettings(argv);
  const rows = KNOWN_MODELS.map((m) => {
    const s = embeddingStatus({ model: m.id, modelDir: null });
    return { id: m.id, dims: m.dims, license: m.license, note: m.note, dir: s.model.dir, pulled: s.model.ok, selected: settings.modelDir === null && settings.model === m.id };
  });
  const current = embeddingStatus(settings);
  if (argv.json) {
    printJson({ models: rows, selected: current.model, runtime: current.runtime });
    return;
  }
  const lines = rows.map((r) => `${r.selected ? '*' : ' '} ${r.id.padEnd(32)} ${String(r.dims).padStart(4)}-d  ${r.pulled ? 'pulled ' : 'not pulled'}  ${r.note}`);
  if (settings.modelDir !== null) lines.push(`* ${settings.modelDir} (your folder${current.model.ok ? '' : `: ${current.model.problem}`})`);
  lines.push('', current.runtime ? `runtime: ${ORT_PACKAGE} ${current.runtime.version} (${current.runtime.dir})` : `runtime: not installed; run \`tsm model setup\``);
  writeOut(lines.join('\n') + '\n');
}

function path(argv: Record<string, unknown>): void {
  const s = embeddingStatus(modelSettings(argv));
  if (argv.json) printJson(s.model);
  else writeOut(`${s.model.dir}\n`);
  if (!s.model.ok) {
    writeErr(`tsm: ${s.model.problem}\n`);
    process.exitCode = 1;
  }
}

async function pull(argv: Record<string, unknown>): Promise<void> {
  const id = typeof argv.name === 'string' ? argv.name : modelSettings(argv).model;
  if (!/^[\w.-]+\/[\w.-]+$/.test(id)) throw new UsageError(`"${id}" is not a Hugging Face model id like ${DEFAULT_MODEL}`);
  if (!knownModel(id)) writeErr(`tsm: ${id} is not one of the models tsm knows; its prefixes are unknown (set queryPrefix and passagePrefix in its tsm-model.json)\n`);
  const dest = pulledModelDir(id);
  let bar: ReturnType<typeof progressBar> | null = null;
  let barFile = '';
  const r = await pullModel({
    id,
    revision: typeof argv.revision === 'string' ? argv.revision : undefined,
    dest,
    force: argv.force === true,
    onProgress: (file, done, total) => {
      if (total < 1e6) return; // the small JSON files arrive before a bar could say anything
      if (file !== barFile) {
        bar?.end();
        bar = progressBar(`${file} (MB)`);
        barFile = file;
      }
      bar!.update(Math.round(done / 1e6), Math.max(1, Math.round(total / 1e6)));
    },
    onFileDone: () => {
      bar?.end();
      bar = null;
      barFile = '';
    },
  });
  const got = r.files.filter((f) => f.outcome === 'downloaded');
  const mb = (got.reduce((n, f) => n + f.bytes, 0) / 1e6).toFixed(1);
  if (argv.json) printJson(r);
  else writeOut(`${id} @ ${r.commit.slice(0, 12)} in ${dest}: ${count(got.length, 'file')} downloaded (${mb} MB), ${r.files.length - got.length} already there\n`);
}

async function setup(argv: Record<string, unknown>): Promise<void> {
  const dir = runtimeDir();
  if (argv['dry-run']) {
    writeOut(`${setupCommandLine(dir)}\n`);
    return;
  }
  const before = embeddingStatus(modelSettings(argv)).runtime;
  if (before && !argv.force) {
    writeOut(`${ORT_PACKAGE} ${before.version} is already there (${before.dir}); \`tsm model setup --force\` installs it again\n`);
    return;
  }
  writeErr(`tsm: installing ${ORT_PACKAGE}@${ORT_VERSION} (a 114 MB download, about 50 MB once the other platforms' binaries are removed) into ${dir}\n`);
  const found = await setupRuntime({ force: argv.force === true });
  writeOut(`${ORT_PACKAGE} ${found.version} installed in ${found.dir}\n`);
}
