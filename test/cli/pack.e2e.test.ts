// What `npm pack` puts in the package a user installs: everything the installed CLI loads (the launcher,
// the fast bundle, every lazily imported module and chunk, the worker scripts), and nothing it never reads
// (source maps, the V8 code cache of the Node that packed it, the eval and bench bundles, tests, sources,
// vault copies, indexes).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../helpers/cli.js';

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

describe('npm pack', () => {
  const files = packedFiles();
  const shipped = new Set(files);

  it('ships the launcher, the fast bundle, the lazy modules and the worker scripts', () => {
    for (const f of ['bin/tsm', 'bin/package.json', 'dist/tsm.cjs', 'package.json', 'README.md']) expect(shipped, f).toContain(f);
    for (const worker of ['index-worker.js', 'semantic-worker.js', 'svd-worker.js']) expect(shipped, worker).toContain(`dist/${worker}`);
    for (const lazy of ['yargs-cli', 'sync', 'session-ingest', 'query-client']) expect(shipped, lazy).toContain(`dist/lazy/${lazy}.js`);
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
