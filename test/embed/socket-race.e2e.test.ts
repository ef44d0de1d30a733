// Two residents started at the same moment on a vault whose socket file was left by a killed process, with the
// built CLI (two `tsm serve`, each driven by the SDK's client) and the tiny generated model, several times over:
// exactly one of them takes the socket over and answers `tsm search`; the other says nothing of a socket,
// stands down, and the socket file is still there, answering, once the one that stood down has stopped.
import { lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm, tsmAsync, waitFor, writeFiles } from '../helpers/cli.js';
import { leaveStaleSocket, startServe } from '../helpers/resident.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { socketPath } from '../../src/vault/embed-socket.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-sock-race-'));
  writeTinyModel(join(root, 'model'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));


describe('two residents at once on a stale socket', () => {
  it('exactly one takes it over and answers, every time; the other stands down and leaves it alone', { timeout: 120_000 }, async () => {
    // Both found the killed process's file refused and both removed "it": the second removed the first's fresh
    // socket, and the first went on listening where nobody could reach it, sure the second's file was its own.
    // Both said "query vectors on …" and both embedded; stopped, the first removed the second's socket.
    for (let round = 0; round < 8; round++) {
      const v = join(root, `v${round}`);
      writeFiles(v, { '.tsm/config.json': JSON.stringify({ modelDir: '../model' }), 'radio.md': '# Radio\n\nantenna gain\n' });
      expect(tsm(['index', '--vault', v]).code).toBe(0);
      await leaveStaleSocket(v);
      const both = await Promise.all([startServe(v), startServe(v)]);
      try {
        await waitFor(() => both.every((s) => s.logs.some((l) => /embedding model tsm-test\/tiny loaded/.test(l))), 20_000);
        const serving = both.filter((s) => s.logs.some((l) => /query vectors on/.test(l)));
        expect(serving, `round ${round}: ${JSON.stringify(both.map((s) => s.logs))}`).toHaveLength(1);
        for (const s of both) expect(s.stderr()).toBe('');
        expect((await tsmAsync(['search', '--vault', v, '--verbose', 'antenna'])).stderr).toMatch(/query vector from the resident model/);
        // The one that stood down stops: the socket stays the other's, and answers.
        await both.find((s) => s !== serving[0])!.client.close();
        expect(lstatSync(socketPath(v)).isSocket()).toBe(true);
        expect((await tsmAsync(['search', '--vault', v, '--verbose', 'antenna'])).stderr).toMatch(/query vector from the resident model/);
      } finally {
        for (const s of both) await s.client.close();
      }
    }
  });
});
