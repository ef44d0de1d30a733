// `tsm model pull`: a model's files from Hugging Face (or a mirror named by HF_ENDPOINT) into tsm's model
// folder. Nothing else in tsm downloads; nothing downloads unless the user runs this.
//
// - One commit: the revision (a branch or tag) is resolved to its commit first, and every file comes from it.
// - Checked: each file against the hash the Hub's tree API lists for it (sha256 for LFS files, the git blob
//   sha1 for small ones). A mismatch deletes the download and stops.
// - Resumable: a transfer is written to <file>.part and continued with an HTTP Range request, automatically
//   a few times, and from where it stopped on the next `tsm model pull`.
// - Atomic: a file takes its name only once complete and checked; tsm-model.json, written last, records
//   the commit and the hashes, so a second pull of the same revision downloads nothing.
import { createHash, type Hash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EmbedError } from './errors.js';
import { META_FILE, onnxSha256 } from './model-folder.js';
import { mappableModel } from './onnx-external.js';
import { knownModel, type KnownModel } from './models.js';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

/** Files pulled for a model tsm does not know by name: the same layout as the known ones. */
const GENERIC: Pick<KnownModel, 'onnxCandidates' | 'files'> = knownModel('intfloat/multilingual-e5-small')!;

export interface PullOptions {
  id: string;
  /** Branch, tag or commit; default main. */
  revision?: string;
  dest: string;
  env?: NodeJS.ProcessEnv;
  /** Download again even what is already there. */
  force?: boolean;
  /** Automatic resumes of one file after its transfer broke off (default 3). */
  retries?: number;
  /** Called as a file starts (total bytes) and as it grows. */
  onProgress?: (file: string, done: number, total: number) => void;
  onFileDone?: (file: string, outcome: 'downloaded' | 'kept') => void;
}

export interface PullResult {
  dir: string;
  commit: string;
  files: { path: string; bytes: number; outcome: 'downloaded' | 'kept' }[];
}

interface TreeEntry {
  type: string;
  path: string;
  size: number;
  oid: string;
  lfs?: { oid: string; size: number };
}

interface Wanted {
  /** Path in the repository. */
  remote: string;
  /** Path in the model folder. */
  local: string;
  size: number;
  check: { algo: 'sha256' | 'git-sha1'; hex: string };
}

interface PulledMeta {
  name: string;
  revision: string;
  source: string;
  files: Record<string, { size: number; sha256?: string; gitSha1?: string }>;
  [k: string]: unknown;
}

export async function pullModel(o: PullOptions): Promise<PullResult> {
  const env = o.env ?? process.env;
  const endpoint = hubEndpoint(env);
  const headers: Record<string, string> = { 'user-agent': 'tsm' };
  if (env.HF_TOKEN) headers.authorization = `Bearer ${env.HF_TOKEN}`;
  const known = knownModel(o.id);
  const layout = known ?? GENERIC;
  const again = `run \`tsm model pull ${o.id}\` again`;

  const info = await getJson<{ sha?: string }>(`${endpoint}/api/models/${o.id}/revision/${encodeURIComponent(o.revision ?? 'main')}`, headers, o.id, again);
  const commit = info.sha;
  if (typeof commit !== 'string' || !/^[0-9a-f]{7,64}$/.test(commit)) throw new EmbedError(`${endpoint} did not name a commit for ${o.id}@${o.revision ?? 'main'}: ${again}, or name --revision`);
  const tree = await getJson<TreeEntry[]>(`${endpoint}/api/models/${o.id}/tree/${commit}?recursive=true`, headers, o.id, again);
  const byPath = new Map(tree.filter((e) => e.type === 'file').map((e) => [e.path, e]));

  const onnx = layout.onnxCandidates.find((p) => byPath.has(p));
  if (onnx === undefined) {
    throw new EmbedError(
      `${o.id} has no ONNX export at ${commit.slice(0, 12)} (looked for ${layout.onnxCandidates.join(', ')}): export one where Python is at hand ` +
        `(\`optimum-cli export onnx --model ${o.id} --task feature-extraction DIR\`), copy DIR here and set "modelDir" in .tsm/config.json (docs/embeddings.md, "Your own model folder")`,
    );
  }
  const wanted: Wanted[] = [];
  for (const f of [{ path: onnx, local: 'model.onnx' }, ...layout.files.map((f) => ({ ...f, local: f.path }))]) {
    const e = byPath.get(f.path);
    if (e === undefined) {
      if ('optional' in f && f.optional) continue;
      throw new EmbedError(`${o.id} at ${commit.slice(0, 12)} has no ${f.path}, which tsm needs: name a --revision that has it`);
    }
    const check = e.lfs ? { algo: 'sha256' as const, hex: e.lfs.oid } : { algo: 'git-sha1' as const, hex: e.oid };
    wanted.push({ remote: f.path, local: f.local, size: e.lfs?.size ?? e.size, check });
  }

  mkdirSync(o.dest, { recursive: true });
  const metaPath = join(o.dest, META_FILE);
  const before = readMeta(metaPath);
  const files: PullResult['files'] = [];
  for (const w of wanted) {
    const target = join(o.dest, w.local);
    const rec = before?.files[w.local];
    const recorded = rec && (w.check.algo === 'sha256' ? rec.sha256 : rec.gitSha1) === w.check.hex;
    if (!o.force && recorded && existsSync(target) && statSync(target).size === w.size) {
      files.push({ path: w.local, bytes: w.size, outcome: 'kept' });
      o.onFileDone?.(w.local, 'kept');
      continue;
    }
    const url = `${endpoint}/${o.id}/resolve/${commit}/${w.remote.split('/').map(encodeURIComponent).join('/')}`;
    await downloadFile(url, target, w, headers, o, again);
    files.push({ path: w.local, bytes: w.size, outcome: 'downloaded' });
    o.onFileDone?.(w.local, 'downloaded');
  }

  const meta: PulledMeta = {
    // What the embedder reads (model-folder.ts); prefixes and dims only for a model tsm knows.
    name: o.id,
    ...(known ? { dims: known.dims, queryPrefix: known.queryPrefix, passagePrefix: known.passagePrefix, maxTokens: known.maxTokens } : {}),
    revision: commit,
    source: `${endpoint}/${o.id}`,
    files: Object.fromEntries(wanted.map((w) => [w.local, { size: w.size, ...(w.check.algo === 'sha256' ? { sha256: w.check.hex } : { gitSha1: w.check.hex }) }])),
  };
  // Settings the user added to the file by hand (prefixes of a model tsm does not know) survive a new pull.
  const merged = { ...(before ?? {}), ...meta };
  writeAtomic(metaPath, JSON.stringify(merged, null, 2) + '\n');
  // Hash the weights and write their memory-mapped copy now, in this short-lived process: doing it at the
  // first load would put a whole copy of the file (470 MB for e5-small) on the resident server's peak.
  const onnxPath = join(o.dest, 'model.onnx');
  mappableModel(onnxPath, onnxSha256(onnxPath), statSync(onnxPath).size);
  return { dir: o.dest, commit, files };
}

function readMeta(path: string): PulledMeta | null {
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as PulledMeta;
    return m && typeof m === 'object' && m.files && typeof m.files === 'object' ? m : null;
  } catch {
    return null;
  }
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * The Hub's address: HF_ENDPOINT, else huggingface.co. Checked before any request: a value without its scheme
 * (`hf-mirror.com`) made fetch throw "Invalid URL", and so did the message meant to name it, and the pull
 * ended with a stack trace.
 */
function hubEndpoint(env: NodeJS.ProcessEnv): string {
  const raw = env.HF_ENDPOINT || DEFAULT_ENDPOINT;
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // said below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new EmbedError(
      `HF_ENDPOINT must be the http or https address of the Hub or a mirror, like https://hf-mirror.com (got ${JSON.stringify(raw.slice(0, 200))}): correct it, or unset it for ${DEFAULT_ENDPOINT}`,
    );
  }
  return raw.replace(/\/+$/, '');
}

async function getJson<T>(url: string, headers: Record<string, string>, id: string, again: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers });
  } catch (err) {
    throw new EmbedError(`cannot reach ${new URL(url).origin} (${causeOf(err)}): check the network, or set HF_ENDPOINT to a mirror you can reach, and ${again}`);
  }
  if (res.status === 404) throw new EmbedError(`${id} (or that revision) is not on ${new URL(url).origin}: check the name (\`tsm model list\` shows the known ones)`);
  if (res.status === 401 || res.status === 403) throw new EmbedError(`${new URL(url).origin} refused ${id} (HTTP ${res.status}): a gated model needs HF_TOKEN set to a token that may read it`);
  if (!res.ok) throw new EmbedError(`${url} answered HTTP ${res.status}: ${again} later`);
  try {
    return (await res.json()) as T;
  } catch (err) {
    throw new EmbedError(`${url} did not answer JSON (${causeOf(err)}): ${again}, or check HF_ENDPOINT`);
  }
}

const causeOf = (err: unknown): string => {
  const e = err as Error & { cause?: Error & { code?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message;
};

function hasher(w: Wanted): Hash {
  if (w.check.algo === 'sha256') return createHash('sha256');
  // git's blob id: sha1 of "blob <size>\0" and the content.
  return createHash('sha1').update(`blob ${w.size}\0`);
}

async function downloadFile(url: string, target: string, w: Wanted, headers: Record<string, string>, o: PullOptions, again: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  const part = `${target}.part`;
  const retries = o.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    let have = existsSync(part) ? statSync(part).size : 0;
    if (have > w.size) {
      rmSync(part);
      have = 0;
    }
    try {
      await transfer(url, part, have, w, headers, o);
      break;
    } catch (err) {
      if (err instanceof EmbedError) throw err;
      const got = existsSync(part) ? statSync(part).size : 0;
      if (attempt < retries) continue;
      throw new EmbedError(`the download of ${w.remote} stopped at ${got} of ${w.size} bytes (${causeOf(err)}): ${again}; it resumes where it stopped`);
    }
  }
  const h = hasher(w);
  const fh = await open(part, 'r');
  try {
    for await (const chunk of fh.createReadStream()) h.update(chunk as Buffer);
  } finally {
    await fh.close();
  }
  const hex = h.digest('hex');
  if (hex !== w.check.hex) {
    rmSync(part, { force: true });
    throw new EmbedError(
      `${w.remote} does not match its checksum (${w.check.algo} ${w.check.hex}, got ${hex}); the download was deleted: ${again} ` +
        '(if it fails again, the server, or the mirror HF_ENDPOINT names, serves a file other than the one it lists)',
    );
  }
  renameSync(part, target);
}

/** One HTTP transfer into `part`, from byte `have` on. Network failures throw plain errors (retried). */
async function transfer(url: string, part: string, have: number, w: Wanted, headers: Record<string, string>, o: PullOptions): Promise<void> {
  if (have === w.size) return;
  const res = await fetch(url, { headers: have > 0 ? { ...headers, range: `bytes=${have}-` } : headers });
  if (res.status === 416) return; // the part is already whole; the checksum decides
  if (!res.ok) {
    if (res.status >= 500) throw new Error(`HTTP ${res.status}`);
    throw new EmbedError(`${url} answered HTTP ${res.status}: run \`tsm model pull\` again later, or check HF_ENDPOINT`);
  }
  // 206 continues the part; 200 is the whole file (a server that ignores Range): start over.
  let done = res.status === 206 ? have : 0;
  const fh = await open(part, res.status === 206 ? 'a' : 'w');
  try {
    o.onProgress?.(w.local, done, w.size);
    if (!res.body) throw new Error('empty response');
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      await fh.write(chunk);
      done += chunk.length;
      if (done > w.size) throw new EmbedError(`${url} sent more than the ${w.size} bytes the Hub lists for ${w.remote}: run \`tsm model pull\` again; if it repeats, check HF_ENDPOINT`);
      o.onProgress?.(w.local, done, w.size);
    }
  } finally {
    await fh.close();
  }
  if (done < w.size) throw new Error(`connection closed at ${done} bytes`);
}
