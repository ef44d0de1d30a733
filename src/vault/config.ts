// Where the vault and index are, and every tunable: env vars over <vault>/.tsm/config.json over defaults.
import { existsSync, realpathSync, statSync } from 'node:fs';
import type * as Os from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { TsmError } from '../core/errors.js';

export const TSM_DIR = '.tsm';
/** The index's file name in its default place, `<vault>/.tsm/`. */
export const INDEX_FILE = 'index.db';
import { fileKind, isNotRegular, readUtf8RegularFile } from './file-kind.js';
import { parseJsonc, shownJson } from './jsonc.js';

export class ConfigError extends TsmError {
  override name = 'ConfigError';
}

/**
 * The vault's config.json cannot be read, or holds a bad setting; `configFile` is its path. Every command
 * stops at it, but `tsm doctor`, which reports it as one finding and checks the rest with the defaults.
 */
export class ConfigFileError extends ConfigError {
  override name = 'ConfigFileError';
  constructor(
    readonly configFile: string,
    message: string,
    /** What fixes it, when that is not correcting its text (`tsm doctor`'s "fix:"). */
    readonly fix?: string,
  ) {
    super(message);
  }
}

/** No vault is named (--vault, $TSM_VAULT) or found above the current folder: `tsm model`, which needs none, goes on. */
export class NoVaultError extends ConfigError {
  override name = 'NoVaultError';
}

/** A setting's value that is not what it must be; `setting` is its name (a config.json key, or `TSM_…`). */
class SettingError extends ConfigError {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}

export interface TsmConfig {
  vault: string;
  db: string;
  /** File extensions indexed, with the dot. */
  extensions: string[];
  chunkChars: number;
  dailyFolders: string[];
  sessionFolders: string[];
  maxFileBytes: number;
  snippetBudget: number;
  snippetChars: number;
  hookTopK: number;
  hookTimeoutMs: number;
  /** How soon `tsm watch` reads again a note whose read failed for the moment (a cloud file still downloading). */
  readRetryMs: number;
  sessionsDir: string;
  answerChars: number;
  /** Half-lives in days for the recency decay, per note type (0 = no decay). */
  halfLifeDays: { daily: number; knowledge: number; session: number };
  /** Learn word vectors from the vault and let them reorder results (docs/search.md, "The semantic ranker"). */
  semantic: boolean;
  /** The neural embedding model by Hugging Face id (docs/embeddings.md); `tsm model pull` fetches it. */
  model: string;
  /** A model folder the user provides instead of a pulled one (absolute, or relative to the vault); null: the pulled one. */
  modelDir: string | null;
  /** Whether Obsidian's Excluded files stay out of searches (vault/obsidian-excluded.ts searchExclusions). */
  obsidianExcludedFiles: boolean;
}

/** The neural embedding model used unless the settings name another (src/embed/models.ts knows its shape). */
export const DEFAULT_MODEL = 'cl-nagoya/ruri-v3-30m';


/**
 * Search's recency half-lives per note type (days): a daily or session note is about its day, a
 * knowledge note stays true for long (its date counts only when a query asks for time: search.ts). The
 * ranking's default (search/rank.ts) and the setting's.
 */
export const DEFAULT_HALF_LIVES = Object.freeze({ daily: 60, knowledge: 365, session: 30 });

/** The note extensions of a vault whose config.json names none: the scanner's and the ranking's default. */
export const DEFAULT_EXTENSIONS: readonly string[] = Object.freeze(['.md']);

const DEFAULTS = {
  extensions: [...DEFAULT_EXTENSIONS],
  chunkChars: 2400,
  dailyFolders: ['daily', 'journal'],
  sessionFolders: ['sessions'],
  maxFileBytes: 5 * 1024 * 1024,
  snippetBudget: 1500,
  snippetChars: 300,
  hookTopK: 5,
  hookTimeoutMs: 1500,
  readRetryMs: 30_000,
  sessionsDir: 'sessions',
  answerChars: 1200,
  halfLifeDays: DEFAULT_HALF_LIVES,
  // On (docs/search.md 2b): with the model, nDCG@10 +0.042 ± 0.016 on the Obsidian Hub set (20 wins, 5
  // losses), +0.007 ± 0.013 on the handbook (21/15), +0.017 ± 0.008 over all 129 judged queries; a handbook
  // `tsm index --full` takes 1.51× the wall time (bound 1.6×), search p50 +0.3 ms. A vault under 300
  // sections is not trained (nothing changes for it); `"semantic": false` turns it off.
  semantic: true,
  model: DEFAULT_MODEL,
  modelDir: null,
  obsidianExcludedFiles: true,
};

export interface ConfigInput {
  vaultFlag?: string;
  dbFlag?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Without a named or marked vault, take the current directory. Only commands whose purpose is to
   * create an index (`tsm index`, `tsm watch`, `tsm init`) set this: running them is the deliberate act.
   */
  cwdIsVault?: boolean;
  /** Read no config.json: the defaults and the environment (`tsm doctor`, once it has reported the file bad). */
  skipFile?: boolean;
}

/**
 * The value of the environment variable `name`, or undefined when it is unset or set to nothing: `FOO= tsm …`
 * and `export FOO=` are how a shell user unsets a setting for one command or a session, and they read so to
 * ripgrep (an empty RIPGREP_CONFIG_PATH reads no config), in the XDG base directory spec and NO_COLOR.
 * Anything else, blanks included, is a value: read and checked. Every TSM_* setting is read through here;
 * an empty TSM_HOOK_TOP_K was an error while an empty TSM_VAULT was unset.
 */
export function envSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === '' ? undefined : value;
}

/** Folders whose presence makes a folder a vault: tsm's own, and Obsidian's. */
export const VAULT_MARKERS = [TSM_DIR, '.obsidian'];

/**
 * The vault a command works on, always one the user chose: --vault, else $TSM_VAULT, else the nearest
 * folder at or above the current one that holds `.tsm/` or `.obsidian/`. Nothing else: a search in a
 * code checkout or in ~ must not quietly index everything below it. Without one, `cwdIsVault` commands
 * take the current directory, unless it is the home folder or the root (wholeDiskFolder); every other
 * command stops with an error that names the fix.
 */
export function resolveVault(input: ConfigInput): string {
  const env = input.env ?? process.env;
  const cwd = resolve(input.cwd ?? process.cwd());
  const given = input.vaultFlag ?? envSetting(env, 'TSM_VAULT');
  if (given !== undefined) {
    const dir = userPath(cwd, given, env);
    // Never created here (`tsm init --vault` included): a typo in a path must not become a new vault.
    const named = input.vaultFlag !== undefined ? '--vault' : '$TSM_VAULT';
    if (!existsSync(dir)) throw new ConfigError(`vault not found: ${dir} (correct ${named}, or create the folder first)`);
    if (!statSync(dir).isDirectory()) throw new ConfigError(`vault is not a folder: ${dir} (correct ${named})`);
    return dir;
  }
  const marked = vaultAboveCwd(cwd, env);
  if (marked !== null) return marked;
  if (input.cwdIsVault) {
    const whole = wholeDiskFolder(cwd, env);
    if (whole === null) return cwd;
    // Measured before: `cd ~ && tsm init` made the home folder a vault, and `tsm index` then read every
    // note below it (other vaults, code checkouts' READMEs and docs) into one index. Named, it is chosen.
    throw new NoVaultError(
      `${cwd} is ${whole}: tsm makes it a vault only when named, as all of it would be indexed. ` +
        `Run this in your notes folder, or name it with --vault ${cwd} if you mean it`,
    );
  }
  throw new NoVaultError(
    `no vault here: neither ${shellCwd(cwd, env) ?? cwd} nor a folder above it holds .tsm/ or .obsidian/. ` +
      'Run `tsm init` (or `tsm index`) in your notes folder, or name it with --vault DIR or $TSM_VAULT',
  );
}

/** 'the home folder' or 'the root folder' when `dir` is one (through symlinks), else null. */
function wholeDiskFolder(dir: string, env: NodeJS.ProcessEnv): string | null {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const here = real(dir);
  if (dirname(here) === here) return 'the root folder';
  const home = env.HOME || (process.getBuiltinModule('node:os') as typeof Os).homedir();
  return home && real(home) === here ? 'the home folder' : null;
}

/**
 * The vault the current folder `cwd` is in: the nearest marked folder at or above it as the shell names it
 * ($PWD), else at or above its real path. The OS gives a process its folder's real path: in `~/notes/ext`,
 * a symlink to a folder elsewhere that the vault indexes as its own, the real path is outside the vault,
 * and `tsm search` said "no vault here" while `tsm index` and `tsm watch` made a second vault there.
 */
export function vaultAboveCwd(cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const shell = shellCwd(cwd, env);
  return (shell !== null ? markedVaultAbove(shell) : null) ?? markedVaultAbove(cwd);
}

/** $PWD when it is another name (through symlinks) of the folder `cwd`, else null. */
function shellCwd(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const pwd = env.PWD;
  if (!pwd || !isAbsolute(pwd) || resolve(pwd) === resolve(cwd)) return null;
  try {
    return realpathSync(pwd) === realpathSync(cwd) ? resolve(pwd) : null;
  } catch {
    return null;
  }
}

/**
 * A path the user wrote (--vault, --db, TSM_*, a folder setting), absolute: `~` and `~/…` are the home
 * folder, a relative path is read from `base`. No shell expands `~` in Claude Code's settings.json `env`,
 * an .mcp.json's `args`, a config.json or `--vault=~/notes`: TSM_DB=~/tsm.db made a folder named `~` in
 * the current folder, and TSM_VAULT=~/notes was "vault not found: <project>/~/notes".
 */
export function userPath(base: string, path: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!/^~(?=$|[\\/])/.test(path)) return resolve(base, path);
  // Loaded here, not imported: search and hook load only what they use (scripts/build.mjs checks it).
  return resolve(base, (env.HOME || (process.getBuiltinModule('node:os') as typeof Os).homedir()) + path.slice(1));
}

/** The nearest folder at or above `dir` holding a vault marker (VAULT_MARKERS), or null. */
function markedVaultAbove(dir: string): string | null {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (VAULT_MARKERS.some((m) => fileKind(join(d, m)) === 'directory')) return d;
    if (dirname(d) === d) return null;
  }
}

export function loadConfig(input: ConfigInput = {}): TsmConfig {
  const env = input.env ?? process.env;
  const vault = resolveVault(input);
  const configPath = join(vault, TSM_DIR, 'config.json');
  const file = input.skipFile ? {} : readConfigFile(configPath);
  try {
    return settings(input, env, vault, file);
  } catch (err) {
    // A setting of the file is named with the file, so that the line says where to correct it (an
    // environment variable's error names the variable).
    if (err instanceof SettingError && err.setting.split('.')[0] in file) throw new ConfigFileError(configPath, `${configPath}: ${err.message}; correct it there`);
    throw err;
  }
}

function settings(input: ConfigInput, env: NodeJS.ProcessEnv, vault: string, file: Record<string, unknown>): TsmConfig {
  const pick = <T>(key: string, fallback: T): T => (key in file ? (file[key] as T) : fallback);
  // An environment variable is text and wins over the file, whose values are JSON: "300" in the file is a
  // string where a number belongs (an error), TSM_HOOK_TOP_K=7 is how a shell writes a number.
  const envInt = (envName: string, key: keyof typeof DEFAULTS, min: number, max: number): number => {
    const text = envSetting(env, envName);
    return text !== undefined ? int(envName, text.trim() === '' ? text : Number(text), min, max, text) : int(key, pick(key, DEFAULTS[key]), min, max);
  };

  const [envDb, envSessions, envModel, envModelDir] = ['TSM_DB', 'TSM_SESSIONS_DIR', 'TSM_MODEL', 'TSM_MODEL_DIR'].map((n) => envSetting(env, n));
  const cfg: TsmConfig = {
    vault,
    db: userPath(input.cwd ?? process.cwd(), input.dbFlag ?? envDb ?? join(vault, TSM_DIR, INDEX_FILE), env),
    extensions: noteExtensions(pick('extensions', DEFAULTS.extensions)),
    chunkChars: int('chunkChars', pick('chunkChars', DEFAULTS.chunkChars), 200, 1_000_000),
    dailyFolders: stringList('dailyFolders', pick('dailyFolders', DEFAULTS.dailyFolders)),
    sessionFolders: stringList('sessionFolders', pick('sessionFolders', DEFAULTS.sessionFolders)),
    maxFileBytes: int('maxFileBytes', pick('maxFileBytes', DEFAULTS.maxFileBytes), 1, 1 << 30),
    snippetBudget: envInt('TSM_SNIPPET_BUDGET', 'snippetBudget', 0, 1_000_000),
    snippetChars: int('snippetChars', pick('snippetChars', DEFAULTS.snippetChars), 20, 100_000),
    hookTopK: envInt('TSM_HOOK_TOP_K', 'hookTopK', 1, 50),
    hookTimeoutMs: envInt('TSM_HOOK_TIMEOUT_MS', 'hookTimeoutMs', 50, 60_000),
    readRetryMs: envInt('TSM_READ_RETRY_MS', 'readRetryMs', 100, 3_600_000),
    sessionsDir: userPath(
      vault,
      envSessions !== undefined ? folder('TSM_SESSIONS_DIR', envSessions) : folder('sessionsDir', pick('sessionsDir', DEFAULTS.sessionsDir)),
      env,
    ),
    answerChars: int('answerChars', pick('answerChars', DEFAULTS.answerChars), 0, 1_000_000),
    halfLifeDays: halfLives(pick('halfLifeDays', DEFAULTS.halfLifeDays)),
    semantic: bool('semantic', pick('semantic', DEFAULTS.semantic)),
    // Named by where the value came from: a bad "model" in config.json is no TSM_MODEL error.
    model: nonEmpty(envModel !== undefined ? 'TSM_MODEL' : 'model', envModel ?? pick('model', DEFAULTS.model)),
    modelDir: optionalDir(envModelDir !== undefined ? 'TSM_MODEL_DIR' : 'modelDir', envModelDir ?? pick('modelDir', DEFAULTS.modelDir), vault, env),
    obsidianExcludedFiles: bool('obsidianExcludedFiles', pick('obsidianExcludedFiles', DEFAULTS.obsidianExcludedFiles)),
  };
  // An index named like a note (`--db notes.md`) would be written over a note, or become a binary "note".
  const noteLike = cfg.extensions.find((e) => cfg.db.toLowerCase().endsWith(e));
  if (noteLike) throw new ConfigError(`the index cannot be a note: ${cfg.db} ends in ${noteLike}; give --db (or TSM_DB) another name`);
  // `--db ~/indexes` meant as the folder to keep it in: the index's own check would say "move it aside".
  const named = input.dbFlag !== undefined ? '--db' : envDb !== undefined ? 'TSM_DB' : null;
  if (named !== null && fileKind(cfg.db) === 'directory') {
    throw new ConfigError(`the index must be a file, and ${cfg.db} is a folder: give ${named} a file name, like ${join(cfg.db, 'index.db')}`);
  }
  return cfg;
}

/**
 * Keys of the vault's config.json that tsm does not read (a typo like "hookTopk", or a setting another
 * version knows): `tsm doctor` warns about them. Not an error: a config written for a newer tsm must
 * not stop an older one.
 */
export function unknownConfigKeys(vault: string): string[] {
  const file = readConfigFile(join(vault, TSM_DIR, 'config.json'));
  const unknown = Object.keys(file).filter((k) => !Object.hasOwn(DEFAULTS, k));
  const half = file.halfLifeDays;
  if (half !== null && typeof half === 'object' && !Array.isArray(half)) {
    unknown.push(...Object.keys(half).filter((k) => !Object.hasOwn(DEFAULTS.halfLifeDays, k)).map((k) => `halfLifeDays.${k}`));
  }
  return unknown;
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    // Opened as a plain file or not at all: reading a FIFO would block until something writes to it, and a
    // hook must never wait on its config.
    text = readUtf8RegularFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    if (isNotRegular(err)) {
      const fix = 'move it aside and run `tsm init` to write a new one';
      throw new ConfigFileError(path, `${path}: not a plain file; ${fix}`, fix);
    }
    // A .tsm/ or config.json of another user's that this one may not read: it was "not a plain file; move it
    // aside" (the folder) or "not valid JSON (EACCES…)" (the file), and `tsm init` then said "already set up".
    const fix = `make ${path} and the folders it is in readable for you (they belong to another user?), or name a vault of your own with --vault`;
    throw new ConfigFileError(path, `${path}: cannot be read (${code ?? (err as Error).message}): ${fix}`, fix);
  }
  let data: unknown;
  try {
    // A byte order mark is how Notepad and other Windows editors start a UTF-8 file: not part of the JSON.
    data = parseJsonc(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ConfigFileError(path, `${path}: not valid JSON (${(err as Error).message})`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigFileError(path, `${path}: must hold a JSON object`);
  }
  return data as Record<string, unknown>;
}

function bool(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw new SettingError(name, `${name} must be true or false (got ${shownJson(value)})`);
}

function nonEmpty(name: string, value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new SettingError(name, `${name} must be a model name like "${DEFAULT_MODEL}" (got ${shownJson(value)})`);
}

/**
 * A folder setting (`modelDir`): null when unset, else absolute — a relative path is taken from `base` (the
 * vault, where the config file lives; `tsm model` outside a vault: the current folder), `~` is your home.
 */
export function optionalDir(name: string, value: unknown, base: string, env: NodeJS.ProcessEnv): string | null {
  if (value === null || value === undefined || value === '') return null;
  // A blank name is no folder: " " would be a folder named ' ' in the vault.
  if (typeof value !== 'string' || value.trim() === '') throw new SettingError(name, `${name} must be a folder path or null (got ${shownJson(value)})`);
  return userPath(base, value, env);
}

/** `shown`: the value as the user wrote it, when it was text read as a number (an environment variable). */
function int(name: string, value: unknown, min: number, max: number, shown: unknown = value): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new SettingError(name, `${name} must be a whole number from ${min} to ${max} (got ${shownJson(shown)})`);
  }
  return value;
}

/** A folder setting relative to the vault. */
function folder(name: string, value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new SettingError(name, `${name} must be a folder path relative to the vault, like "sessions" (got ${shownJson(value)})`);
}

/**
 * The note extensions, with their dot, in lower case. An empty list made no file a note: the next sync took
 * every note out of the index ("0 added, 0 updated, 42 removed") without a word, and searches found nothing.
 */
function noteExtensions(value: unknown): string[] {
  const list = stringList('extensions', value).map((e) => (e.startsWith('.') ? e.toLowerCase() : `.${e.toLowerCase()}`));
  if (list.length === 0) throw new SettingError('extensions', `extensions must name at least one note extension, like ${JSON.stringify(DEFAULTS.extensions)} (got [])`);
  return list;
}

function stringList(name: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new SettingError(name, `${name} must be a list of non-empty strings (got ${shownJson(value)})`);
  }
  return value as string[];
}

function halfLives(value: unknown): TsmConfig['halfLifeDays'] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SettingError('halfLifeDays', `halfLifeDays must be an object like {"daily": 60} (got ${shownJson(value)})`);
  }
  const v = value as Record<string, unknown>;
  const d = DEFAULTS.halfLifeDays;
  return {
    daily: int('halfLifeDays.daily', v.daily ?? d.daily, 0, 100_000),
    knowledge: int('halfLifeDays.knowledge', v.knowledge ?? d.knowledge, 0, 100_000),
    session: int('halfLifeDays.session', v.session ?? d.session, 0, 100_000),
  };
}

/** The commented config.json `tsm init` writes: every key with its default. */
export function defaultConfigText(): string {
  const d = DEFAULTS;
  return `// tsm configuration. Environment variables (TSM_*) override these values.
// Delete a line to use the default. This file may hold // comments.
{
  // File extensions that are notes: the whole list, not an addition (keep ".md" to add one: [".md", ".mdx"]).
  "extensions": ${JSON.stringify(d.extensions)},
  // Sections longer than this many characters are split at paragraph boundaries.
  "chunkChars": ${d.chunkChars},
  // Folders whose notes are daily notes (files named by a day, 2026-11-27…, 20261127, 27.11.2026…, are daily anywhere,
  // and so are those Obsidian's daily-note settings name: .obsidian/daily-notes.json, Periodic Notes).
  "dailyFolders": ${JSON.stringify(d.dailyFolders)},
  // Folders whose notes are session notes.
  "sessionFolders": ${JSON.stringify(d.sessionFolders)},
  // Files larger than this (bytes) are skipped with a warning.
  "maxFileBytes": ${d.maxFileBytes},
  // Characters all XML results may print together: paths, headings, snippets (TSM_SNIPPET_BUDGET).
  "snippetBudget": ${d.snippetBudget},
  // Longest snippet per result.
  "snippetChars": ${d.snippetChars},
  // Results the prompt hook injects (TSM_HOOK_TOP_K) and its deadline (TSM_HOOK_TIMEOUT_MS).
  "hookTopK": ${d.hookTopK},
  "hookTimeoutMs": ${d.hookTimeoutMs},
  // How soon tsm watch reads again a note whose read failed for the moment, a cloud file still downloading
  // (TSM_READ_RETRY_MS).
  "readRetryMs": ${d.readRetryMs},
  // Where session notes from Claude Code transcripts go, relative to the vault (TSM_SESSIONS_DIR).
  "sessionsDir": ${JSON.stringify(d.sessionsDir)},
  // Longest assistant answer kept per prompt in a session note.
  "answerChars": ${d.answerChars},
  // Recency half-lives in days per note type (0 = no decay); a knowledge note's only for queries that ask
  // for time ("last week", --after).
  "halfLifeDays": ${JSON.stringify(d.halfLifeDays)},
  // Learn word vectors from the vault's own text (at \`tsm index\`, kept up by \`tsm watch\`) and let them
  // reorder the best results (vaults of 300 sections or more). A full build takes ~1.5× as long.
  "semantic": ${d.semantic},
  // Neural semantic search (docs/embeddings.md): the embedding model by Hugging Face id (TSM_MODEL), pulled
  // by \`tsm model pull\`, or a folder of your own holding model.onnx and tokenizer.json (TSM_MODEL_DIR).
  "model": ${JSON.stringify(d.model)},
  "modelDir": null,
  // Leave the files Obsidian's "Excluded files" setting names (.obsidian/app.json) out of every search, as
  // Obsidian leaves them out of its own; they stay indexed, so links to them resolve.
  "obsidianExcludedFiles": ${d.obsidianExcludedFiles}
}
`;
}

export function tsmDir(cfg: TsmConfig): string {
  return join(cfg.vault, TSM_DIR);
}

