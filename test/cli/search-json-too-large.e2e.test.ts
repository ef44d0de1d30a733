// `tsm search -f json` asked for more than one string can hold, with the built CLI. Measured before: three
// 20 MB notes and `-n 100 --all-sections --full --include-content 50` (each top hit carries its whole file)
// exited 1 with "tsm: RangeError: Invalid string length" and a stack trace. Now one line names what made it
// so large and how to ask for less, and stdout holds nothing (never half a document).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

// One 11 MB note of 60 sections: 60 hits, each with the whole file, are 660 million characters, past
// Node.js's longest string (2^29 - 24, about 537 million).
const LINE = 'zebra crossing the savanna with lots of words to fill this line up nicely ok\n';
const NOTE = `# Herd\n\n${Array.from({ length: 60 }, (_, i) => `## Section ${i} zebra\n\n${LINE.repeat(2300)}\n`).join('')}`;

let v: { dir: string; cleanup: () => void };
beforeAll(() => {
  v = makeVault({ '.tsm/config.json': JSON.stringify({ maxFileBytes: 64 * 1024 * 1024 }), 'herd.md': NOTE });
  expect(tsm(['index', '--vault', v.dir], { timeoutMs: 120_000 }).code).toBe(0);
}, 120_000);
afterAll(() => v.cleanup());

describe('tsm search -f json too large for one string', () => {
  it('exits 1 with one line naming the fix, and nothing on stdout', () => {
    const r = tsm(['search', '--vault', v.dir, 'zebra', '-f', 'json', '-n', '60', '--all-sections', '--include-content', '60'], { timeoutMs: 120_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
    expect(r.stderr).toMatch(/^tsm: the JSON of 60 results is longer than Node\.js can hold in one string \(about 537 million characters; --include-content 60: [\d.]+ million characters of whole files\): ask for fewer results \(-n\), a smaller --include-content, or leave out --full\n$/);
  }, 120_000);

  it('fewer whole files, as the line says: well-formed JSON', () => {
    const r = tsm(['search', '--vault', v.dir, 'zebra', '-f', 'json', '-n', '60', '--all-sections', '--include-content', '2'], { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.stdout) as { file_content?: string }[];
    expect(hits).toHaveLength(60);
    expect(hits.filter((h) => h.file_content === NOTE)).toHaveLength(2);
  }, 120_000);
});
