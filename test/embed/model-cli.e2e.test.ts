// `tsm model …` and doctor's embeddings check, as a user runs them: the built CLI, a fake Hub on 127.0.0.1,
// a throw-away tsm cache folder (TSM_CACHE_DIR) and a vault with a .tsm/ config.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, TSM, tsm, tsmAsync } from '../helpers/cli.js';
import { startFakeHub, TINY_ID, type FakeHub } from '../helpers/tiny-model-hub.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

let root: string;
let hub: FakeHub;
let vault: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-model-cli-'));
  hub = await startFakeHub(join(root, 'hub'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, '.tsm'), { recursive: true });
  writeFileSync(join(vault, 'note.md'), '# note\n\ntext\n');
  env = { HF_ENDPOINT: hub.endpoint, TSM_CACHE_DIR: join(root, 'cache') };
});

afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

const setConfig = (cfg: object): void => writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify(cfg));
const embeddingLines = (out: string): string[] => out.split('\n').filter((l) => /^\S+\s+embeddings:/.test(l));

describe('tsm model', () => {
  it('pull downloads once, without a progress bar when stderr is not a terminal; path prints the folder', async () => {
    // Asynchronous: the fake Hub runs in this process and must answer while tsm runs.
    const first = await tsmAsync(['model', 'pull', TINY_ID], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^${TINY_ID} @ c0ffee000000 in .*models/tsm-test--tiny: 6 files downloaded \\(\\d+\\.\\d MB\\), 0 already there\\n$`));
    expect(first.stderr).toContain('is not one of the models tsm knows');
    expect(first.stderr).not.toContain('\r');
    const second = await tsmAsync(['model', 'pull', TINY_ID], { env });
    expect(second.stdout).toContain('0 files downloaded (0.0 MB), 6 already there');
    // One file lost: one downloaded again, said in the singular.
    rmSync(join(root, 'cache', 'models', 'tsm-test--tiny', 'tokenizer.json'));
    const third = await tsmAsync(['model', 'pull', TINY_ID], { env });
    expect(third.stdout).toMatch(/: 1 file downloaded \(\d+\.\d MB\), 5 already there\n$/);
    const path = tsm(['model', 'path', '--model', TINY_ID], { env, cwd: root });
    expect(path).toMatchObject({ code: 0, stdout: `${join(root, 'cache', 'models', 'tsm-test--tiny')}\n`, stderr: '' });
  });

  it('path exits 1 and names the pull command when the model is not there', () => {
    const r = tsm(['model', 'path'], { env, cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${join(root, 'cache', 'models', 'cl-nagoya--ruri-v3-30m')}\n`);
    expect(r.stderr).toContain('run `tsm model pull cl-nagoya/ruri-v3-30m`');
  });

  // The help named config.json first, as if it won over the variable; every setting reads the variable first
  // (src/vault/config.ts), and so does this one.
  it('--help names the defaults in the order they apply: $TSM_MODEL before config.json', () => {
    const dir = join(root, 'precedence');
    mkdirSync(join(dir, '.tsm'), { recursive: true });
    writeFileSync(join(dir, '.tsm', 'config.json'), '{"model": "cfg/model", "modelDir": "cfg-dir"}');
    const path = (extra: Record<string, string>) => tsm(['model', 'path'], { env: { ...env, ...extra }, cwd: dir }).stdout;
    expect(path({ TSM_MODEL_DIR: join(root, 'env-dir') })).toBe(`${join(root, 'env-dir')}\n`);
    const help = tsm(['model', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('model id (default: $TSM_MODEL, else "model" in .tsm/config.json, else cl-nagoya/ruri-v3-30m)');
    expect(help).toContain('a model folder of your own (default: $TSM_MODEL_DIR, else "modelDir" in .tsm/config.json)');
  });

  // README, "Paths": a relative folder setting is read from the vault (here, outside one, the current folder),
  // and `~` is your home also where no shell expands it. Outside a vault, and for --model-dir anywhere, the
  // value was used as written: `~/m` named a folder `~` in the current folder, which path printed as missing.
  it('reads `~` and relative folders of $TSM_MODEL_DIR and --model-dir as every folder setting is read', () => {
    const home = join(root, 'home');
    writeTinyModel(join(home, 'm'));
    const outside = join(root, 'outside');
    mkdirSync(outside, { recursive: true });
    const path = (args: string[], extra: Record<string, string> = {}, cwd = outside) =>
      tsm(['model', 'path', ...args], { env: { ...env, HOME: home, ...extra }, cwd });
    const want = { code: 0, stdout: `${join(home, 'm')}\n`, stderr: '' };
    expect(path([], { TSM_MODEL_DIR: '~/m' })).toMatchObject(want);
    expect(path(['--model-dir=~/m'])).toMatchObject(want);
    expect(path(['--model-dir=~/m'], {}, vault)).toMatchObject(want); // in a vault too
    expect(path(['--model-dir', 'm'], {}, home)).toMatchObject(want);
    expect(path([], { TSM_MODEL_DIR: 'm' }, home)).toMatchObject(want);
    const blank = path([], { TSM_MODEL_DIR: ' ' });
    expect(blank.code).toBe(1);
    expect(blank.stderr).toContain('TSM_MODEL_DIR must be a folder path or null (got " ")');
  });

  // Models are per user, so `tsm model` works outside any vault; but in a vault (found, or named by
  // $TSM_VAULT) whose config.json is bad it stops as every other command does, instead of quietly
  // using the default model.
  it('stops at a bad config.json of the vault it runs in, and at a $TSM_VAULT that is not there', () => {
    const bad = join(root, 'bad-vault');
    mkdirSync(join(bad, '.tsm'), { recursive: true });
    writeFileSync(join(bad, '.tsm', 'config.json'), '{ "semantic": "yes" }');
    for (const r of [tsm(['model', 'path'], { env, cwd: bad }), tsm(['model', 'list'], { env: { ...env, TSM_VAULT: bad }, cwd: root })]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`tsm: ${join(bad, '.tsm', 'config.json')}: semantic must be true or false (got "yes"); correct it there\n`);
    }
    const gone = tsm(['model', 'path'], { env: { ...env, TSM_VAULT: join(root, 'no-such-vault') }, cwd: root });
    expect(gone.code).toBe(1);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain(`vault not found: ${join(root, 'no-such-vault')} (correct $TSM_VAULT`);
  });

  it('list marks the configured model and names the runtime', () => {
    const r = tsm(['model', 'list', '--json'], { env, cwd: root });
    const out = JSON.parse(r.stdout);
    expect(out.models.map((m: { id: string; selected: boolean }) => [m.id, m.selected])).toEqual([
      ['cl-nagoya/ruri-v3-30m', true],
      ['intfloat/multilingual-e5-small', false],
    ]);
    expect(out.runtime).toMatchObject({ from: 'tsm', version: '1.30.0' });
  });

  // An HF_ENDPOINT that is no URL (a host name without its scheme) ended the pull with a stack trace:
  // "tsm: TypeError: Invalid URL at new URL … at getJson (…cmd-model….js)".
  it('pull names an HF_ENDPOINT that is no http(s) address, with its fix, not a stack trace', () => {
    for (const bad of ['hf-mirror.com', 'ftp://hf-mirror.com']) {
      const r = tsm(['model', 'pull'], { env: { ...env, HF_ENDPOINT: bad }, cwd: root });
      expect(r.code, bad).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `tsm: HF_ENDPOINT must be the http or https address of the Hub or a mirror, like https://hf-mirror.com (got "${bad}"): correct it, or unset it for https://huggingface.co\n`,
      );
    }
  });

  it('pull and setup run with NODE_EXTRA_CA_CERTS, which the launcher drops for every other command', () => {
    // Run as a command (the launcher's shell line runs only then). A CA file that does not exist makes Node
    // warn as it starts: the warning shows which processes had the variable.
    const bin = join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(TSM, join(bin, 'tsm'));
    const caEnv = { ...cleanEnv(env), NODE_EXTRA_CA_CERTS: join(bin, 'no-such-ca.pem'), PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` };
    const run = (args: string[]) => spawnSync(join(bin, 'tsm'), args, { env: caEnv, encoding: 'utf8', cwd: root });
    const setup = run(['model', 'setup', '--dry-run']);
    expect(setup.status).toBe(0);
    expect(setup.stdout).toMatch(/^ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1\.30\.0 --prefix .*runtime --ignore-scripts/);
    expect(setup.stderr).toMatch(/extra certs/i);
    const list = run(['model', 'list']);
    expect(list.status).toBe(0);
    expect(list.stderr).not.toMatch(/extra certs/i);
  });

  it('setup with no npm on PATH names the command to run by hand, the very line --dry-run prints', () => {
    // Measured before: the line lacked the ONNXRUNTIME_NODE_INSTALL=skip prefix --dry-run shows.
    const noNpm = join(root, 'no-npm');
    mkdirSync(noNpm, { recursive: true });
    const own = { TSM_CACHE_DIR: join(root, 'setup-cache'), PATH: noNpm };
    const dry = tsm(['model', 'setup', '--dry-run'], { env: own, cwd: root });
    expect(dry.code).toBe(0);
    const line = dry.stdout.trim();
    expect(line).toMatch(/^ONNXRUNTIME_NODE_INSTALL=skip npm install /);
    const r = tsm(['model', 'setup', '--force'], { env: own, cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`: install Node.js with npm, or run \`${line}\` yourself\n`);
  });

  it('setup --dry-run prints a line a shell runs as printed, whatever the cache folder is called', () => {
    // Measured before: with TSM_CACHE_DIR `…/x y/$HOME's` it printed `--prefix …/x y/$HOME's/runtime` bare: pasted
    // into a shell, an unclosed quote; with a space alone, npm was given two words and installed elsewhere.
    const cache = join(root, 'x y', "$HOME's");
    const fakeBin = join(root, 'fake-npm-bin');
    mkdirSync(fakeBin, { recursive: true });
    writeFileSync(join(fakeBin, 'npm'), '#!/bin/sh\nprintf \'%s\\n\' "$ONNXRUNTIME_NODE_INSTALL" "$@" > "$ARGS_OUT"\n', { mode: 0o755 });
    const dry = tsm(['model', 'setup', '--dry-run'], { env: { TSM_CACHE_DIR: cache }, cwd: root });
    expect(dry.code).toBe(0);
    const out = join(root, 'npm-args.txt');
    const sh = spawnSync('/bin/sh', ['-c', dry.stdout.trimEnd()], { env: { PATH: `${fakeBin}${delimiter}/usr/bin${delimiter}/bin`, ARGS_OUT: out, HOME: '/nowhere' }, encoding: 'utf8' });
    expect(sh.status, sh.stderr).toBe(0);
    const args = readFileSync(out, 'utf8').split('\n');
    expect(args[0]).toBe('skip'); // ONNXRUNTIME_NODE_INSTALL
    expect(args.slice(1, 5)).toEqual(['install', expect.stringMatching(/^onnxruntime-node@/), '--prefix', join(cache, 'runtime')]);
  });

  it('pull refuses a name that is not a model id, with exit 2', () => {
    const r = tsm(['model', 'pull', 'ruri'], { env, cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"ruri" is not a Hugging Face model id');
  });
});

describe('tsm doctor on embeddings', () => {
  it('says how to add the model while nothing is set up, as info', () => {
    setConfig({});
    const lines = embeddingLines(tsm(['doctor', '--vault', vault], { env }).stdout);
    expect(lines).toEqual(['info    embeddings: the embedding model is not usable: no model folder at ' + join(root, 'cache', 'models', 'cl-nagoya--ruri-v3-30m') + ': run `tsm model pull cl-nagoya/ruri-v3-30m`']);
  });

  it('is silent when the configured model is pulled and the runtime is there', async () => {
    setConfig({ model: TINY_ID });
    await tsmAsync(['model', 'pull', TINY_ID], { env });
    expect(embeddingLines(tsm(['doctor', '--vault', vault], { env }).stdout)).toEqual([]);
  });

  it('warns about a model folder of the user’s own (relative to the vault) that is incomplete, and is silent once it is whole', () => {
    setConfig({ modelDir: 'models/mine' });
    mkdirSync(join(vault, 'models', 'mine'), { recursive: true });
    const broken = tsm(['doctor', '--vault', vault], { env }).stdout;
    expect(embeddingLines(broken)).toEqual([`warning embeddings: the embedding model is not usable: ${join(vault, 'models', 'mine')} holds no model.onnx (nor onnx/model.onnx): put a complete model export in ${join(vault, 'models', 'mine')} (docs/embeddings.md, "Your own model folder")`]);
    expect(broken).toContain('fix: fix the folder, or remove "modelDir" from .tsm/config.json');
    writeTinyModel(join(vault, 'models', 'mine'));
    // A torn modules.json: named, with the fix, by doctor, `tsm model path` and `tsm index --embed` (a stack trace before).
    writeFileSync(join(vault, 'models', 'mine', 'modules.json'), '[{"type": ');
    const named = new RegExp(`${join(vault, 'models', 'mine', 'modules.json')}: modules\\.json is not valid JSON \\(.*\\); put a complete model export`);
    expect(embeddingLines(tsm(['doctor', '--vault', vault], { env }).stdout)[0]).toMatch(named);
    expect(tsm(['model', 'path', '--vault', vault], { env }).stderr).toMatch(named);
    const embed = tsm(['index', '--vault', vault, '--embed'], { env });
    expect(embed.code).toBe(1);
    expect(embed.stderr).toMatch(new RegExp(`^tsm: ${named.source}`, 'm'));
    expect(embed.stderr).not.toMatch(/SyntaxError|\n\s+at /);
    rmSync(join(vault, 'models', 'mine', 'modules.json'));
    expect(embeddingLines(tsm(['doctor', '--vault', vault], { env }).stdout)).toEqual([]);
    expect(tsm(['model', 'path', '--vault', vault], { env }).stdout).toBe(`${join(vault, 'models', 'mine')}\n`);
  });
});
