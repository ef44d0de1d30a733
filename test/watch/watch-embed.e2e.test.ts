// The resident model end to end, with the built CLI and the tiny generated model: `tsm index --embed` (and
// without a model, the error that names the fix), `tsm watch` loading the model, embedding in the
// background and after each batch, answering `tsm search`'s query vector; killed, it leaves a stale
// socket that `tsm search` copes with (lexically, at once) and the next watcher takes over.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tsm, tsmAsync, waitFor, writeFiles } from '../helpers/cli.js';
import { startServe } from '../helpers/resident.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { killWatchers, startWatch } from './watch-process.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-wembed-'));
  writeTinyModel(join(root, 'model'));
});
afterEach(() => killWatchers());
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function vault(withModel = true): string {
  const v = join(root, `v${n++}`);
  writeFiles(v, {
    '.tsm/config.json': withModel ? JSON.stringify({ modelDir: '../model' }) : '{}',
    'radio.md': '# Radio\n\n## Antenna\n\nantenna gain and range\n\n## Battery\n\nbattery life\n',
    'garden.md': '# Garden\n\ncompost and tomato seeds\n',
  });
  return v;
}

const verboseSearch = (v: string, q: string) => tsmAsync(['search', '--vault', v, '--verbose', q]);

describe('resident model', () => {
  it('tsm index --embed: every section gets vectors, in one summary line off a TTY; without a model, the fix', () => {
    const v = vault();
    expect(tsm(['index', '--vault', v]).code).toBe(0);
    expect(tsm(['status', '--vault', v]).stdout).toMatch(/^vectors   none \(a neural model is opt-in/m);
    const r = tsm(['index', '--vault', v, '--embed']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^embedded 4 sections in [\d.]+ s; 4 of 4 have vectors\n$/m);
    expect(tsm(['status', '--vault', v]).stdout).toMatch(/^vectors   4 of 4 sections embedded by tsm-test\/tiny@\S+ \(\d+ dims\)$/m);
    const status = JSON.parse(tsm(['status', '--vault', v, '--json']).stdout);
    expect(status.vectors).toMatchObject({ embedded: 4, sections: 4 });
    expect(status.resident).toBeNull(); // no resident runs
    const again = tsm(['index', '--vault', v, '--embed', '--json']);
    expect(JSON.parse(again.stdout).embedding).toMatchObject({ embedded: 0, withVectors: 4, remaining: 0 });
    // No folder named, nothing pulled (an empty cache folder).
    // Said before any work: the whole sync ran first, its summary on stdout, then exit 1 (measured before).
    const bare = vault(false);
    const none = tsm(['index', '--vault', bare, '--embed'], { env: { TSM_CACHE_DIR: join(root, 'empty-cache') } });
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^tsm: --embed needs a model: run `tsm model pull` .*or set "modelDir" in .*config\.json/);
    expect(existsSync(join(bare, '.tsm', 'index.db'))).toBe(false);
  });

  it('keeps ONNX Runtime\'s telemetry off: nothing queued for upload in the home folder', () => {
    // ONNX Runtime 1.29+ (1.30 here) records telemetry events (a device id, the OS, session creations) in
    // ~/.cache/Microsoft/DeveloperTools/.onnxruntime/ to send to Microsoft, in every process that makes a
    // session: `tsm serve` and `tsm watch` all day. README: nothing leaves the machine.
    const v = vault();
    const home = join(root, 'home');
    const r = tsm(['index', '--vault', v, '--embed'], { env: { HOME: home, XDG_CACHE_HOME: undefined, ORT_DISABLE_TELEMETRY: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/embedded 4 sections/);
    expect(existsSync(join(home, '.cache', 'Microsoft'))).toBe(false);
  });

  it('tsm watch answers query vectors and embeds new notes; killed, search goes lexical and the next watcher takes over', async () => {
    const v = vault();
    const w = await startWatch(v);
    await waitFor(() => /embedded 4 sections/.test(w.stderr()), 20_000);
    expect(w.stderr()).toMatch(/query vectors on .*\.tsm\/run\/embed\.sock/);
    const asked = await verboseSearch(v, 'antenna');
    expect(asked.code).toBe(0);
    expect(asked.stderr).toMatch(/query vector from the resident model in \d+ ms \(tsm-test\/tiny@/);
    expect(asked.stderr).toMatch(/neural ranker on: 4 of 4 sections have vectors of this model/);
    expect(asked.stdout).toContain('radio.md');
    // The watcher reads its copy of the vectors after its embedding run: the query vector then lists the
    // vault's nearest notes, and a note without the query's word (garden.md) comes in through them.
    let listed = asked;
    await waitFor(async () => /may add the 2 nearest notes the resident listed/.test((listed = await verboseSearch(v, 'antenna')).stderr), 20_000, 200);
    expect(listed.stdout).toContain('radio.md');
    expect(listed.stdout).toContain('garden.md'); // no word of it says antenna: lexically it is never found

    writeFileSync(join(v, 'field.md'), '# Field test\n\nantenna on the hill\n');
    await waitFor(() => /embedded 1 section in/.test(w.stderr()), 20_000);

    await w.stop('SIGKILL');
    const started = Date.now();
    const lexical = await verboseSearch(v, 'antenna');
    expect(lexical.code).toBe(0);
    expect(lexical.stderr).toMatch(/lexical search only: nothing answers on/);
    expect(lexical.stdout).toContain('field.md');
    expect(Date.now() - started).toBeLessThan(5000); // a process start, not a deadline wait

    const w2 = await startWatch(v);
    await waitFor(() => /query vectors on/.test(w2.stderr()), 20_000);
    expect((await verboseSearch(v, 'antenna')).stderr).toMatch(/query vector from the resident model/);
    await w2.stop();
  });

  it('a tsm serve beside the watcher that answers leaves the socket to it without a word on stderr', async () => {
    // The socket server's error listener was on before it listened, so the EADDRINUSE of finding the socket
    // taken was also reported: `tsm serve` wrote "query-embedding socket: listen EADDRINUSE …" to stderr (an
    // error line in Claude Code) at start and at each claim attempt, every 30 s, as long as the watcher ran.
    const v = vault();
    const w = await startWatch(v);
    await waitFor(() => /query vectors on/.test(w.stderr()), 20_000);
    const { client, logs, stderr } = await startServe(v);
    try {
      await waitFor(() => logs.some((l) => /embedding model tsm-test\/tiny loaded/.test(l)), 20_000);
      expect(logs.find((l) => /embedding model/.test(l))).not.toMatch(/query vectors on/); // the watcher's
      expect(stderr()).toBe('');
    } finally {
      await client.close();
    }
    await w.stop();
  });

  it('embeds all the same when its socket cannot be made (a file that is no socket in its place), and says why, not that another process answers', async () => {
    // Taken for "another process answers … this watcher leaves both to it": nothing answered and nothing
    // embedded, and `tsm status` said a running watcher would embed the sections left.
    const v = vault();
    writeFiles(v, { '.tsm/run/embed.sock': 'not a socket\n' });
    const w = await startWatch(v);
    await waitFor(() => /embedded 4 sections/.test(w.stderr()), 20_000);
    expect(w.stderr()).toMatch(/no query-embedding socket: .*embed\.sock exists and is not a socket; move it aside/);
    expect(w.stderr()).toMatch(/embedding model tsm-test\/tiny loaded; no query vectors for `tsm search` until the socket can be made/);
    expect(w.stderr()).not.toMatch(/another process answers/);
    // `tsm search --verbose` names the file too (it said a stopped process left it, for the next resident to take over).
    expect((await verboseSearch(v, 'antenna')).stderr).toMatch(/lexical search only: .*embed\.sock is not a socket, so no resident \(tsm serve, tsm watch\) can listen there: move it aside/);
    writeFileSync(join(v, 'field.md'), '# Field test\n\nantenna on the hill\n');
    await waitFor(() => /embedded 1 section in/.test(w.stderr()), 20_000);
    expect(JSON.parse(tsm(['status', '--vault', v, '--json']).stdout).vectors).toMatchObject({ embedded: 5, sections: 5 });
    expect(readFileSync(join(v, '.tsm/run/embed.sock'), 'utf8')).toBe('not a socket\n'); // left as it was
    expect(await w.stop()).toBe(0);
  });

  it("leaves the vectors `tsm index --embed` made with the vault's new model while it runs, and says to restart it", async () => {
    // The watcher, still on the old model, deleted them at its next batch and embedded every section again.
    const v = vault();
    writeTinyModel(join(root, 'model-b'), { dim: 48, seed: 7, meta: { name: 'tsm-test/tiny-b' } });
    const w = await startWatch(v);
    await waitFor(() => /embedded 4 sections/.test(w.stderr()), 20_000);
    writeFiles(v, { '.tsm/config.json': JSON.stringify({ modelDir: '../model-b' }) });
    expect(tsm(['index', '--vault', v, '--embed']).stderr).toMatch(/embedded 4 sections/);
    writeFileSync(join(v, 'field.md'), '# Field test\n\nantenna on the hill\n');
    await waitFor(() => /the index now holds vectors of another model/.test(w.stderr()), 20_000);
    expect(w.stderr()).toMatch(/the index now holds vectors of another model \(tsm-test\/tiny-b@sha256:\w+\), stored by another process: tsm-test\/tiny embeds nothing more here; restart `tsm watch[^`]*` \/ `tsm serve` to load the vault's model/);
    expect(tsm(['status', '--vault', v]).stdout).toMatch(/^vectors   4 of 5 sections embedded by tsm-test\/tiny-b@\S+ \(48 dims\)/m);
    expect(await w.stop()).toBe(0);
  });

  it('stands down for the vault\'s new model: it stops answering, and tsm search --verbose and tsm status no longer say it embeds', async () => {
    // It answered on with its old model after "embeds nothing more here": `tsm search --verbose` said "the index
    // holds no vectors of this model yet (the resident embeds them, or `tsm index --embed`)", and `tsm status`
    // "1 to go: `tsm index --embed`, or a running `tsm watch`/`tsm serve` does it", which it never did.
    const v = vault();
    writeTinyModel(join(root, 'model-c'), { dim: 40, seed: 11, meta: { name: 'tsm-test/tiny-c' } });
    const w = await startWatch(v);
    await waitFor(() => /embedded 4 sections/.test(w.stderr()), 20_000);
    writeFiles(v, { '.tsm/config.json': JSON.stringify({ modelDir: '../model-c' }) });
    expect(tsm(['index', '--vault', v, '--embed']).stderr).toMatch(/embedded 4 sections/);
    // Before its next embedding run it still answers, with its own model: search says whose vectors the index holds.
    expect((await verboseSearch(v, 'antenna')).stderr).toMatch(
      /the index holds vectors of another model \(tsm-test\/tiny-c@\S+\), not of the resident's: lexical search only; restart `tsm watch[^`]*` \/ `tsm serve` to load the vault's model/,
    );
    writeFileSync(join(v, 'field.md'), '# Field test\n\nantenna on the hill\n');
    await waitFor(() => /no longer answering query vectors on .*embed\.sock/.test(w.stderr()), 20_000);
    expect(existsSync(join(v, '.tsm/run/embed.sock'))).toBe(false);
    const searched = await verboseSearch(v, 'antenna');
    expect(searched.stderr).toMatch(/lexical search only: no resident process/);
    expect(searched.stderr).not.toMatch(/query vector from the resident model/);
    expect(tsm(['status', '--vault', v]).stdout).toMatch(/^vectors   4 of 5 sections embedded by tsm-test\/tiny-c@\S+ \(40 dims\); 1 to go: `tsm index --embed`$/m);
    // Still a watcher: it indexes, and stops cleanly.
    writeFileSync(join(v, 'moon.md'), '# Moon\n\ncrater\n');
    await waitFor(() => /1 added in \d+ ms \(moon\.md\)/.test(w.stderr()), 20_000);
    expect(await w.stop()).toBe(0);
  });

  it('tsm status names the model of a resident that answers on another one, and never says it embeds the sections left', async () => {
    // `tsm serve` on the old model, between its embedding runs (every 30 s): status said "1 to go: `tsm index
    // --embed`, or a running `tsm watch`/`tsm serve` does it".
    const v = vault();
    writeTinyModel(join(root, 'model-d'), { dim: 40, seed: 13, meta: { name: 'tsm-test/tiny-d' } });
    expect(tsm(['index', '--vault', v]).code).toBe(0);
    const { client, logs } = await startServe(v);
    try {
      await waitFor(() => logs.some((l) => /embedded 4 sections/.test(l)), 20_000);
      writeFileSync(join(v, 'field.md'), '# Field test\n\nantenna on the hill\n');
      expect(tsm(['index', '--vault', v]).code).toBe(0);
      expect(tsm(['status', '--vault', v]).stdout).toMatch(/^vectors   4 of 5 sections embedded by tsm-test\/tiny@\S+ \(\d+ dims\); 1 to go: `tsm index --embed`, or the running `tsm watch`\/`tsm serve` does it$/m);
      // --json names the resident's model too (before: nothing said which model a resident answers with).
      const same = JSON.parse(tsm(['status', '--vault', v, '--json']).stdout);
      expect(same.resident).toEqual({ model: expect.stringMatching(/^tsm-test\/tiny@\S+$/), fingerprint: same.vectors.fingerprint });
      expect(same.resident.fingerprint.startsWith(`${same.resident.model};`)).toBe(true);
      writeFiles(v, { '.tsm/config.json': JSON.stringify({ modelDir: '../model-d' }) });
      expect(tsm(['index', '--vault', v, '--embed']).stderr).toMatch(/embedded 5 sections/);
      writeFileSync(join(v, 'moon.md'), '# Moon\n\ncrater\n');
      expect(tsm(['index', '--vault', v]).code).toBe(0);
      expect(tsm(['status', '--vault', v]).stdout).toMatch(
        /^vectors   5 of 6 sections embedded by tsm-test\/tiny-d@\S+ \(40 dims\); 1 to go: `tsm index --embed`; the running `tsm watch`\/`tsm serve` has another model loaded \(tsm-test\/tiny@\S+\): restart it to load the vault's model$/m,
      );
      const other = JSON.parse(tsm(['status', '--vault', v, '--json']).stdout);
      expect(other.resident).toEqual(same.resident); // still the old model's, not the index's
      expect(other.resident.fingerprint).not.toBe(other.vectors.fingerprint);
    } finally {
      await client.close();
    }
  });

  it('a long vault path and a long $TMPDIR: the socket goes to /tmp/tsm-<uid>/, never cut short into another folder, and the watcher runs on', async () => {
    // The hashed path in $TMPDIR was longer than a Unix socket's: the system cut it and made a socket file named
    // by its first 107 bytes (in a folder of the user's), and the watcher died on chmod with a stack trace.
    const long = join(root, 'x'.repeat(100));
    const tmp = join(long, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const v = join(long, 'vault');
    writeFiles(v, { '.tsm/config.json': JSON.stringify({ modelDir: join(root, 'model') }), 'radio.md': '# Radio\n\nantenna gain\n' });
    const w = await startWatch(v, [], { wrapper: ['env', `TMPDIR=${tmp}`] });
    await waitFor(() => /embedded 1 section/.test(w.stderr()), 20_000);
    expect(w.stderr()).toMatch(new RegExp(`query vectors on /tmp/tsm-${process.getuid!()}/[0-9a-f]{16}\\.sock`));
    expect(w.stderr()).not.toMatch(/Error|\n\s+at /);
    expect((await tsmAsync(['search', '--vault', v, '--verbose', 'antenna'], { env: { TMPDIR: tmp } })).stderr).toMatch(/query vector from the resident model/);
    expect(readdirSync(long).sort()).toEqual(['tmp', 'vault']); // no socket file cut short beside them
    expect(await w.stop()).toBe(0);
  });

  it('listens again when .tsm/ is deleted and made again under it, as it writes its pid file again', async () => {
    // The socket file went with the folder and nothing made it again: every `tsm search` said "no resident
    // process" and ranked lexically for as long as the watcher ran.
    const v = vault();
    const w = await startWatch(v);
    await waitFor(() => /embedded 4 sections/.test(w.stderr()), 20_000);
    const config = readFileSync(join(v, '.tsm/config.json'), 'utf8');
    rmSync(join(v, '.tsm'), { recursive: true });
    writeFiles(v, { '.tsm/config.json': config });
    await waitFor(() => existsSync(join(v, '.tsm/run/embed.sock')), 10_000);
    expect((await verboseSearch(v, 'antenna')).stderr).toMatch(/query vector from the resident model/);
    expect(w.stderr()).toMatch(/query-embedding socket .* was gone; listening again/);
    expect(await w.stop()).toBe(0);
    expect(existsSync(join(v, '.tsm/run/embed.sock'))).toBe(false);
  });
});
