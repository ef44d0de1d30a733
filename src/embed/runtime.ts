// Where the ONNX runtime comes from. It is not a dependency of tsm: installed whole it adds 290 MB (native
// builds for five platforms) to an install that is ~100 MB without it. tsm finds it in its own node_modules
// (a development checkout, where it is a devDependency, or a user who ran `npm install onnxruntime-node`
// next to tsm), else in the folder `tsm model setup` installs it into (pruned to this platform: ~50 MB). Only resident paths (indexing, the query-embedding server, doctor's
// check) call loadRuntime(); `tsm search` and `tsm hook` never import this runtime.
import { existsSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EmbedError } from './errors.js';
import { tsmCacheDir } from './models.js';

export const ORT_PACKAGE = 'onnxruntime-node';
/** The runtime `tsm model setup` installs and CI tests (package.json's devDependency pins the same). */
export const ORT_VERSION = '1.30.0';

/** The folder `tsm model setup` installs the runtime into: <tsm cache>/runtime. */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(tsmCacheDir(env), 'runtime');
}

export interface RuntimeLocation {
  /** The package's folder. */
  dir: string;
  version: string;
  from: 'tsm' | 'setup';
}

/**
 * The folders whose node_modules may hold the runtime, in order: tsm's own (resolution starts at this
 * module, so a development checkout and an install with the runtime beside it both work), then the setup one.
 */
export function runtimeSearchPath(env: NodeJS.ProcessEnv = process.env): { from: RuntimeLocation['from']; base: string }[] {
  return [
    { from: 'tsm', base: moduleFile() },
    { from: 'setup', base: join(runtimeDir(env), 'package.json') },
  ];
}

function moduleFile(): string {
  // import.meta.url is this file in the sources and the lazily loaded chunk in dist/; both sit inside tsm.
  return fileURLToPath(import.meta.url);
}

/** The runtime found first along `search`, or null. Reads package.json only: nothing is loaded. */
export function findRuntime(search = runtimeSearchPath()): RuntimeLocation | null {
  for (const { from, base } of search) {
    let main: string;
    try {
      // A variable, not a literal: esbuild must not try to bundle the runtime into dist/.
      main = createRequire(base).resolve(ORT_PACKAGE);
    } catch {
      continue;
    }
    // main is <dir>/dist/index.js; its package.json sits one folder up.
    const dir = dirname(dirname(main));
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg)) continue;
    const version = String((JSON.parse(readFileSync(pkg, 'utf8')) as { version?: unknown }).version ?? '?');
    return { dir, version, from };
  }
  return null;
}

/** The sentence a missing runtime is reported with, here and in `tsm doctor`. */
export function missingRuntimeHint(env: NodeJS.ProcessEnv = process.env): string {
  return `run \`tsm model setup\` (installs ${ORT_PACKAGE}@${ORT_VERSION}, a 114 MB download, about 50 MB on disk, into ${runtimeDir(env)})`;
}

export type OrtModule = typeof import('onnxruntime-node');

const loaded = new Map<string, Promise<OrtModule>>();

/** Imports the runtime (about 0.1 s). Throws an EmbedError naming `tsm model setup` when there is none. */
export function loadRuntime(search = runtimeSearchPath()): Promise<OrtModule> {
  const found = findRuntime(search);
  if (found === null) {
    return Promise.reject(new EmbedError(`the ONNX runtime for semantic search is not installed: ${missingRuntimeHint()}`));
  }
  let p = loaded.get(found.dir);
  if (p === undefined) {
    // ONNX Runtime 1.29+ collects telemetry on Linux and macOS too (1DS: a device id, the OS, each session
    // made), queued in ~/.cache/Microsoft/DeveloperTools/.onnxruntime/ for upload to Microsoft: 14 events
    // from one `tsm index --embed`, more from every resident all day. tsm keeps everything on the machine.
    // Read by the native library from the process environment, so set before it loads; a user's own
    // setting stands.
    process.env.ORT_DISABLE_TELEMETRY ??= '1';
    const main = createRequire(join(found.dir, 'package.json')).resolve(found.dir);
    p = (import(pathToFileURL(main).href) as Promise<OrtModule & { default?: OrtModule }>).then((m) => (m.default ?? m) as OrtModule);
    p.catch(() => loaded.delete(found.dir));
    loaded.set(found.dir, p);
  }
  return p.catch((err: unknown) => {
    throw new EmbedError(
      `the ONNX runtime in ${found.dir} (${ORT_PACKAGE} ${found.version}) did not load (${(err as Error).message.split('\n')[0]}): ` +
        `run \`tsm model setup --force\` to install it again`,
    );
  });
}

/**
 * ONNX Runtime 1.30's Linux build leaves an empty `mat-debug-<pid>.log` in the temp folder of every process
 * that creates a session (seen here: one per `tsm serve`, watcher, eval and test process, hundreds a day).
 * Call before creating a session; the function it returns removes that file if this process made it (it
 * was not there before) and it is still empty, so nothing written by anyone else is ever touched.
 */
export function runtimeLitterGuard(): () => void {
  const path = join(tmpdir(), `mat-debug-${process.pid}.log`);
  if (existsSync(path)) return () => {};
  return () => {
    try {
      if (statSync(path).size === 0) unlinkSync(path);
    } catch {
      // not made (another runtime version), or already gone
    }
  };
}
