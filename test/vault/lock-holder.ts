// Another process for file-lock-race.test.ts: takes `<lock>` with withFileLock, holds it `<holdMs>` and logs
// `try`, `in` and `out` lines with its pid to `<log>` (appends of one short line each: whole lines).
import { appendFileSync } from 'node:fs';
import { withFileLock } from '../../src/vault/file-lock.js';

const [lock, vault, log, holdMs] = process.argv.slice(2);
appendFileSync(log, `try ${process.pid}\n`);
await withFileLock(lock, { vault, timeoutMs: 20_000 }, async () => {
  appendFileSync(log, `in ${process.pid}\n`);
  await new Promise((r) => setTimeout(r, Number(holdMs)));
  appendFileSync(log, `out ${process.pid}\n`);
});
