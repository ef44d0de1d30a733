// What `npm pack` puts in the package a user installs: everything the installed CLI loads (the launcher,
// the fast bundle, every lazily imported module and chunk, the worker scripts), and nothing it never reads
// (source maps, the V8 code cache of the Node that packed it, the eval and bench bundles, tests, sources,
// vault copies, indexes); and "dependencies" lists only the packages it loads from node_modules.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, ROOT, TSM } from '../helpers/cli.js';

function packedFiles(): string[] {
  assertBuilt();
  // --ignore-scripts: no `prepare` (a build) in the middle of a test; the build is there already.
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'silent' } });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
}

/** The files a shipped module imports by a relative path (static, dynamic, re-exports). */
function relativeImports(file: string): string[] {
  const code = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|__tsmImport\()"(\.\.?\/[^"]+)"/g)].map((m) => m[1]);
  return specs.map((s) => posix.normalize(posix.join(posix.dirname(file), s)));
}

/** The package a bare specifier names: `@scope/name/…` → `@scope/name`, `name/…` → `name`. */
const packageOf = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** Packages a shipped module loads from node_modules at run time: require(), import(), `from`, require.resolve(). */
function runtimeLoads(file: string): string[] {
  const code = readFileSync(join(ROOT, file), 'utf8');
  // Double quotes only: esbuild writes every import it leaves in that way; comments it keeps as written.
  const specs = [...code.matchAll(/(?:\b(?:require|import)|\.resolve)\(\s*"([\w@][\w@./-]*)"|\bfrom\s*"([\w@][\w@./-]*)"/g)].map((m) => m[1] ?? m[2]);
  return specs.filter((s) => !s.startsWith('node:') && !builtinModules.includes(packageOf(s))).map(packageOf);
}

/** Packages esbuild bundled into a shipped module, from its source map (written next to it, not shipped). */
function bundledPackages(file: string): string[] {
  const map = JSON.parse(readFileSync(join(ROOT, `${file}.map`), 'utf8')) as { sources: string[] };
  return map.sources.flatMap((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1] ?? []);
}

describe('npm pack', () => {
  const files = packedFiles();
  const shipped = new Set(files);

  it('ships the launcher, the fast bundle, the lazy modules and the worker scripts', () => {
    for (const f of ['bin/tsm', 'bin/package.json', 'dist/tsm.cjs', 'package.json', 'README.md']) expect(shipped, f).toContain(f);
    for (const worker of ['index-worker.js', 'semantic-worker.js', 'svd-worker.js']) expect(shipped, worker).toContain(`dist/${worker}`);
    for (const lazy of ['cli', 'yargs-cli', 'sync', 'session-ingest', 'query-client', 'path-notice', 'embed-status']) expect(shipped, lazy).toContain(`dist/lazy/${lazy}.js`);
    // The plugins and the docs the README and `tsm doctor` point to.
    for (const f of ['plugin/hooks/hooks.json', 'plugin-warm/hooks/hooks.json', '.claude-plugin/marketplace.json', 'docs/embeddings.md']) expect(shipped, f).toContain(f);
  });

  it('every module a shipped module imports by a relative path is shipped too', () => {
    const missing: string[] = [];
    for (const f of files.filter((p) => /^dist\/.*\.(c?js)$/.test(p))) {
      for (const target of relativeImports(f)) if (!shipped.has(target)) missing.push(`${f} → ${target}`);
    }
    expect(missing).toEqual([]);
    expect(relativeImports('dist/tsm.cjs').length).toBeGreaterThan(0); // the pattern still sees the lazy imports
  });

  it('"dependencies" lists only packages the installed CLI loads from node_modules (the rest are bundled)', () => {
    // A bundled package listed there was downloaded by every install and never read: with the 11 of them,
    // `npm install -g` of the tarball added 235 packages and 67 MB; with better-sqlite3 alone, 39 and 33 MB.
    const modules = files.filter((p) => /^dist\/.*\.(c?js)$/.test(p));
    const loaded = new Set(modules.flatMap(runtimeLoads));
    const bundled = new Set(modules.flatMap(bundledPackages));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const unused = Object.keys(pkg.dependencies ?? {})
      .filter((name) => !loaded.has(name))
      .map((name) => `${name}: ${bundled.has(name) ? 'bundled into dist/' : 'not imported by dist/'}, never loaded from node_modules: move it to devDependencies`);
    expect(unused).toEqual([]);
    // The patterns still see both kinds: better-sqlite3's addon is resolved in node_modules, yargs is bundled.
    expect(loaded).toContain('better-sqlite3');
    expect(bundled).toContain('yargs');
  });

  it('ships nothing the installed CLI never reads', () => {
    const stray = files.filter(
      (p) =>
        p.endsWith('.map') ||
        p.endsWith('.v8cache') ||
        /^dist\/(eval|bench|bench-embed)\.js$/.test(p) ||
        /^(src|test|bench|eval|scripts|vault-example|node_modules)\//.test(p) ||
        p.split('/').includes('.tsm') ||
        p.endsWith('.db') ||
        p.endsWith('.tgz'),
    );
    expect(stray).toEqual([]);
  });
});

describe('the Node versions tsm runs on', () => {
  it('package.json "engines" names them, and the launcher refuses any other with one line', () => {
    // Node 22.0-22.2 have no process.getBuiltinModule (a text search and every SessionStart hook threw);
    // yargs 18, a dependency, asks for ^20.19.0 || ^22.12.0 || >=23.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0');
    const dir = mkdtempSync(join(tmpdir(), 'tsm-node-'));
    try {
      const fake = join(dir, 'fake-node.cjs');
      writeFileSync(fake, "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: process.env.FAKE_NODE } });\n");
      const run = (version: string) => spawnSync(process.execPath, ['--require', fake, TSM, '--version'], { env: cleanEnv({ FAKE_NODE: version }), encoding: 'utf8' });
      for (const old of ['18.20.4', '20.18.3', '21.7.3', '22.0.0', '22.11.0']) {
        const r = run(old);
        expect(r.status, old).toBe(1);
        expect(r.stderr).toMatch(/^tsm: needs Node\.js 20\.19 or later on 20\.x, or 22\.12 or later \(this is v[\d.]+\)\n$/);
      }
      for (const ok of ['20.19.0', '22.12.0', '24.1.0']) expect(run(ok).status, ok).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
