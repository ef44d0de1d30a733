// Ctrl-C during `tsm index --embed`, with the built CLI and the tiny generated model: the run stops between two
// sections, says how far it got and what is left on its one summary line, exits 130, and keeps every vector
// it stored; the next run embeds only what is left.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, TSM, tsm, waitFor, writeFiles } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-embed-int-'));
  writeTinyModel(join(root, 'model'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const WORDS = ['antenna', 'battery', 'garden', 'compost', 'tomato', 'radio', 'signal', 'range', 'hill', 'moon', 'crater', 'river'];

/** 600 sections of ~300 words (and 60 title sections): the tiny model takes ~4 ms a section, so the run lasts ~3 s. */
function bigVault(): string {
  const v = join(root, 'vault');
  const files: Record<string, string> = { '.tsm/config.json': JSON.stringify({ modelDir: '../model' }) };
  let k = 0;
  for (let i = 0; i < 60; i++) {
    let text = `# Note ${i}\n\n`;
    for (let j = 0; j < 10; j++) {
      text += `## Part ${j}\n\n${Array.from({ length: 300 }, () => WORDS[k++ % WORDS.length] + (k % 7)).join(' ')}\n\n`;
    }
    files[`n${i}.md`] = text;
  }
  writeFiles(v, files);
  return v;
}

const vectors = (v: string): { embedded: number; sections: number } | null => JSON.parse(tsm(['status', '--vault', v, '--json']).stdout).vectors;

describe('tsm index --embed interrupted', () => {
  it('on SIGINT: one summary line saying it was interrupted and what is left, exit 130, and the vectors stored stay', { timeout: 120_000 }, async () => {
    // Killed by the signal, it printed nothing after the sync's line: how many sections had vectors, and
    // whether the rest would be done, was for `tsm status` to tell.
    assertBuilt();
    const v = bigVault();
    expect(tsm(['index', '--vault', v]).code).toBe(0);
    const child = spawn(process.execPath, [TSM, 'index', '--vault', v, '--embed'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Interrupt once the first batches are committed.
    await waitFor(() => (vectors(v)?.embedded ?? 0) > 0, 30_000, 20);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const m = /^embedded (\d+) sections? in [\d.]+ s, then interrupted \(SIGINT\); (\d+) of (\d+) have vectors \((\d+) left: run `tsm index --embed[^`]*` again, which embeds only those\)$/m.exec(stderr);
    expect(m, stderr).not.toBeNull();
    const [embedded, withVectors, total, left] = [1, 2, 3, 4].map((i) => Number(m![i]));
    expect(total).toBe(660);
    expect(embedded).toBe(withVectors);
    expect(left).toBe(total - withVectors);
    expect(left).toBeGreaterThan(0);
    // Every vector the line counts is in the index (the batch in hand was committed too).
    expect(vectors(v)).toEqual({ embedded: withVectors, sections: total, fingerprint: expect.any(String), dims: expect.any(Number) });
    const next = tsm(['index', '--vault', v, '--embed', '--json']);
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout).embedding).toMatchObject({ embedded: left, withVectors: 660, remaining: 0, stopped: false });
  });
});
