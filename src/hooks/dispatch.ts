// `tsm hook`: one payload in, at most one JSON object out, and an exit code that is never 2
// (docs/claude-code.md). Fail open: past the payload check, every problem means "no context, exit 0, one
// line in hook.log". Each event's code is imported only when that event runs, so the prompt hook stays
// small and fast. The events that answer within a deadline (UserPromptSubmit, SessionStart) race a timer:
// on time out the hook prints nothing, logs one line and the process exits at once.
import { basename } from 'node:path';
import { isExplained } from '../core/errors.js';
import { readableMessage } from '../core/machine-limits.js';
import type { QueryVector } from '../embed/socket-protocol.js';
import { loadConfig, tsmDir, type TsmConfig } from '../vault/config.js';
import { fileKind } from '../vault/file-kind.js';
import { Deadline } from './deadline.js';
import { DETACHED_ENV } from './detach.js';
import { formatLogLine, writeHookLog } from './hook-log.js';
import { HookVaultError, resolveHookVault } from './hook-vault.js';
import { canonicalEvent, essentialPayload, HOOK_EVENTS, HookInputError, parseHookPayload, type HookEvent, type HookPayload } from './payload.js';

export interface HookRequest {
  /** Everything read from stdin. */
  stdin: string;
  /** The `event` argument, used when the payload has no `hook_event_name`. */
  eventArg?: string;
  vaultFlag?: string;
  dbFlag?: string;
  env: NodeJS.ProcessEnv;
  /** The process's working directory (used when the payload has no `cwd`). */
  cwd: string;
  /** The prompt hook's deadline; default: $TSM_HOOK_TIMEOUT_MS from the start of the process. */
  deadline?: Deadline;
  /** The session-note hooks' deadline (Stop, PreCompact, SessionEnd); default: INGEST_DEADLINE_MS from the start of the process. */
  ingestDeadline?: Deadline;
  now?: Date;
  /**
   * SessionEnd: start the detached ingest; SessionStart: start a detached `tsm index`. Absent → SessionEnd's
   * work is done in this process and SessionStart starts no sync.
   */
  detach?: (req: { event: HookEvent; vault: string; db?: string; payload: string }) => void;
  /** Arguments the command line had that mean nothing to a hook: logged once, never refused. */
  argWarning?: string;
  /**
   * The prompt's vector from a resident process's embedding model (hook_context in `tsm serve`), for the
   * neural ranker; undefined when there is none. The per-process hook never has one: it loads no model.
   */
  queryVector?: (text: string) => Promise<QueryVector | undefined>;
}

/**
 * Longest wait for a resident model's prompt vector before the prompt is searched without it. A 300-token
 * prompt takes 37 ms (ruri-v3-30m's shape) to 76 ms (e5-small's) on one thread, and the model may be busy
 * with one background passage (50–100 ms) first (docs/embeddings.md); the hook's own deadline is 1,500 ms.
 */
export const PROMPT_VECTOR_MS = 250;

/**
 * Deadline of the hooks that write session notes (Stop, PreCompact, and SessionEnd's detached worker), from
 * the start of the process: their waits (another ingest of the transcript, another writer of the index) give
 * up there. Claude Code kills Stop and PreCompact at 30 s (HOOK_TIMEOUT_S), which would lose the note too;
 * 20 s leaves room for the work done after the waits.
 */
export const INGEST_DEADLINE_MS = 20_000;

export interface HookOutcome {
  stdout: string;
  stderr: string;
  exitCode: 0 | 1;
  /** The deadline passed with work still under way: the caller should exit now rather than wait for it. */
  timedOut?: boolean;
}

interface Context {
  req: HookRequest;
  payload: HookPayload;
  event: HookEvent | null;
  vault: string | null;
  stderr: string[];
  timedOut: boolean;
  /** SessionStart started the background sync (src/hooks/background-sync.ts). */
  syncStarted?: boolean;
}

/**
 * Time kept back from TSM_HOOK_TIMEOUT_MS for what follows the work: printing, closing, Node's exit.
 * The work (and SQLite's wait on a locked index, which blocks the process) gets the rest.
 */
const EXIT_MARGIN_MS = 100;

export async function handleHook(req: HookRequest): Promise<HookOutcome> {
  let payload: HookPayload;
  try {
    payload = parseHookPayload(req.stdin);
  } catch (err) {
    if (err instanceof HookInputError) return { stdout: '', stderr: `tsm hook: ${err.message}\n`, exitCode: 1 };
    throw err;
  }
  const name = payload.eventName ?? req.eventArg ?? null;
  if (name === null) {
    return { stdout: '', stderr: 'tsm hook: the payload has no hook_event_name and no event was given (tsm hook <event>)\n', exitCode: 1 };
  }
  const ctx: Context = { req, payload, event: canonicalEvent(name), vault: null, stderr: [], timedOut: false };
  let stdout = '';
  try {
    stdout = await run(ctx, name);
  } catch (err) {
    log(ctx, describeError(err));
  }
  return { stdout: ctx.timedOut ? '' : stdout, stderr: ctx.stderr.join(''), exitCode: 0, ...(ctx.timedOut ? { timedOut: true } : {}) };
}

async function run(ctx: Context, name: string): Promise<string> {
  const { req, payload } = ctx;
  // Cheapest checks first: a skipped prompt costs no file system access, and loads no search code.
  if (ctx.event === 'UserPromptSubmit' && payload.prompt !== null) {
    const { promptSkipReason } = await import('./prompt-skip.js');
    if (promptSkipReason(payload.prompt) !== null) return '';
  }
  try {
    ctx.vault = resolveHookVault({ vaultFlag: req.vaultFlag, env: req.env, cwd: payload.cwd ?? req.cwd, processCwd: req.cwd });
  } catch (err) {
    if (err instanceof HookVaultError) {
      log(ctx, err.message);
      return '';
    }
    throw err;
  }
  if (ctx.vault === null) return ''; // no vault for this project: tsm is simply not set up here
  if (req.argWarning) log(ctx, req.argWarning);
  if (ctx.event === null) {
    log(ctx, `ignored event "${name}" (tsm handles ${HOOK_EVENTS.join(', ')})`);
    return '';
  }
  const cfg = loadConfig({ vaultFlag: ctx.vault, dbFlag: req.dbFlag, env: req.env, cwd: req.cwd });
  const deadline = (req.deadline ?? new Deadline(cfg.hookTimeoutMs)).shortenedBy(EXIT_MARGIN_MS);
  const detached = req.env[DETACHED_ENV] === '1';
  switch (ctx.event) {
    case 'UserPromptSubmit':
      return withDeadline(ctx, deadline, () => promptSubmit(ctx, cfg, deadline));
    case 'SessionStart':
      if (detached) return backgroundSync(ctx, cfg);
      ctx.syncStarted = await startBackgroundSync(ctx, cfg);
      // Another session's SessionStart may have started the first build a moment ago (sessions opened
      // together): this one waits for it too, rather than log "no index" and leave its first prompt empty.
      if (fileKind(cfg.db) === 'absent' && (ctx.syncStarted || (await syncRunning(cfg))) && !(await firstBuildDone(ctx, cfg, deadline))) return '';
      return withDeadline(ctx, deadline, () => sessionStart(ctx, cfg, deadline));
    case 'SessionEnd':
      if (req.detach && !detached) {
        if (transcriptOf(ctx) !== null) req.detach({ event: ctx.event, vault: ctx.vault, db: req.dbFlag, payload: essentialPayload(payload) });
        return '';
      }
      return ingest(ctx, cfg);
    case 'Stop':
    case 'PreCompact':
      return ingest(ctx, cfg);
  }
}

/**
 * `work`'s answer, or '' once the deadline passes (logged once). A timer cannot interrupt synchronous
 * work (a SQLite query), so the steps also bound themselves: SQLite's wait on a lock is limited to the
 * time left, files are checked to be plain files before they are opened, and the prompt is capped.
 */
async function withDeadline(ctx: Context, deadline: Deadline, work: () => Promise<string>): Promise<string> {
  const answer = await deadline.race(work(), () => {
    ctx.timedOut = true;
    log(ctx, `deadline of ${deadline.ms} ms passed (${Math.round(deadline.elapsed())} ms since start); nothing injected`);
  });
  return answer ?? '';
}

/** The resident model's vector of the searched text within PROMPT_VECTOR_MS (and half the time left), or undefined. */
async function promptVector(ctx: Context, embed: NonNullable<HookRequest['queryVector']>, text: string, deadline: Deadline): Promise<QueryVector | undefined> {
  const wait = new Deadline(Math.min(PROMPT_VECTOR_MS, deadline.remaining() / 2), process.uptime() * 1000);
  try {
    const vector = await wait.race(embed(text), () => log(ctx, `the prompt's vector took over ${Math.round(wait.ms)} ms; searched without the neural ranker`));
    return vector ?? undefined;
  } catch (err) {
    log(ctx, `the prompt's vector failed (${err instanceof Error ? err.message : String(err)}); searched without the neural ranker`);
    return undefined;
  }
}

async function promptSubmit(ctx: Context, cfg: TsmConfig, deadline: Deadline): Promise<string> {
  if (ctx.payload.prompt === null) {
    log(ctx, 'the payload has no prompt; nothing to search');
    return '';
  }
  const { promptContext, promptSearchText } = await import('./prompt-context.js');
  const queryVector = ctx.req.queryVector ? await promptVector(ctx, ctx.req.queryVector, promptSearchText(ctx.payload.prompt), deadline) : undefined;
  const r = promptContext(cfg, ctx.payload.prompt, { deadline, now: ctx.req.now, sessionId: ctx.payload.sessionId, queryVector });
  if (r.kind === 'context') return r.output;
  // An index an older tsm wrote (tsm upgraded mid-session): this prompt gets nothing, and the sync SessionStart
  // would start updates it in the background, so the next prompts find it. An index of a newer tsm is not this
  // tsm's to rebuild from a prompt (a newer tsm in another shell would rebuild it back): only logged.
  if (r.olderSchema && (await startBackgroundSync(ctx, cfg))) log(ctx, `${r.problem} (a background \`tsm index\` started: the next prompts get results)`);
  else if (r.problem) log(ctx, r.problem);
  return '';
}

async function sessionStart(ctx: Context, cfg: TsmConfig, deadline: Deadline): Promise<string> {
  const { sessionStartContext } = await import('./session-start.js');
  const cwd = ctx.payload.cwd;
  const read = () =>
    sessionStartContext(cfg, {
      source: ctx.payload.source,
      project: cwd ? basename(cwd.replace(/[\\/]+$/, '')) || null : null,
      deadline,
      now: ctx.req.now,
    });
  let r: ReturnType<typeof sessionStartContext>;
  try {
    try {
      r = read();
    } catch (err) {
      // The index a first build (another session's background sync) has only just created, still empty:
      // wait for that build as for one this hook started, then read it.
      if (!isMissingIndex(err) || !(await syncRunning(cfg))) throw err;
      if (!(await firstBuildDone(ctx, cfg, deadline))) return '';
      r = read();
    }
  } catch (err) {
    // An index an older tsm wrote (tsm upgraded between sessions): the sync this hook started updates it.
    if (!ctx.syncStarted || !isOlderSchema(err)) throw err;
    log(ctx, `${err.message} (a background \`tsm index\` started: the next prompts get results)`);
    return '';
  }
  if (r.kind === 'context') return r.output;
  if (r.problem) log(ctx, r.problem);
  return '';
}

/** An IndexError 'missing': no index file, or one holding no tables yet (told apart without loading db.ts). */
function isMissingIndex(err: unknown): boolean {
  return err instanceof Error && err.name === 'IndexError' && (err as { code?: unknown }).code === 'missing';
}

/** An IndexError of an index an older tsm wrote (told apart without loading db.ts and SQLite). */
function isOlderSchema(err: unknown): err is Error {
  return err instanceof Error && (err as { olderSchema?: unknown }).olderSchema === true;
}

/** Start the detached sync worker (src/hooks/background-sync.ts) unless one is not wanted: SessionStart, and a prompt that meets an index an older tsm wrote. */
async function startBackgroundSync(ctx: Context, cfg: TsmConfig): Promise<boolean> {
  if (!ctx.req.detach || ctx.vault === null) return false;
  const { syncWanted } = await import('./background-sync.js');
  if (!syncWanted(cfg)) return false;
  // The worker dispatches on the payload's event: it is the SessionStart worker whichever hook starts it.
  ctx.req.detach({ event: 'SessionStart', vault: ctx.vault, db: ctx.req.dbFlag, payload: essentialPayload({ ...ctx.payload, eventName: 'SessionStart' }) });
  return true;
}

/** Waits within the deadline for the first build a background sync is making; says so in the log when it is not done. */
async function firstBuildDone(ctx: Context, cfg: TsmConfig, deadline: Deadline): Promise<boolean> {
  const { awaitFirstBuild } = await import('./background-sync.js');
  if (await awaitFirstBuild(cfg, deadline)) return true;
  log(ctx, `no index yet at ${cfg.db}: building it in the background; prompts get results once it is done`);
  return false;
}

/** Whether a background sync of the vault (another session's) holds its lock now. */
async function syncRunning(cfg: TsmConfig): Promise<boolean> {
  const { syncLockHeld } = await import('./background-sync.js');
  return syncLockHeld(cfg);
}

/** The detached SessionStart worker. */
async function backgroundSync(ctx: Context, cfg: TsmConfig): Promise<string> {
  const { runBackgroundSync } = await import('./background-sync.js');
  await runBackgroundSync(cfg, (message) => log(ctx, message));
  return '';
}

/** The payload's transcript, if it is one tsm reads (a Claude Code `.jsonl`); else null, logged. */
function transcriptOf(ctx: Context): string | null {
  const transcript = ctx.payload.transcriptPath;
  if (transcript === null) {
    log(ctx, 'the payload has no transcript_path; nothing to ingest');
    return null;
  }
  if (!/\.jsonl$/i.test(transcript)) {
    log(ctx, `transcript_path is not a .jsonl transcript: ${transcript}`);
    return null;
  }
  const kind = fileKind(transcript);
  if (kind === 'directory' || kind === 'other') {
    // Reading a FIFO would wait for a writer forever (a device: forever, or garbage).
    log(ctx, `transcript_path is not a plain file: ${transcript}`);
    return null;
  }
  return transcript;
}

/**
 * Stop / PreCompact / SessionEnd: the transcript into its session note, then that note into the index, each
 * wait bounded by the ingest deadline. A note written but not indexed in time is indexed by the vault's next
 * sync (`tsm index`, `tsm watch`, SessionStart's background sync): the file changed, so any sync reads it.
 */
async function ingest(ctx: Context, cfg: TsmConfig): Promise<string> {
  const transcript = transcriptOf(ctx);
  if (transcript === null) return '';
  const { ingestSession, indexSessionNotes, skippedLinesWarning } = await import('../sessions/ingest-and-index.js');
  const deadline = ctx.req.ingestDeadline ?? new Deadline(INGEST_DEADLINE_MS);
  const limit = { waitUntil: Date.now() + deadline.remaining() };
  const result = await ingestSession(cfg, transcript, limit);
  // Logged now, whatever indexing does next: those lines are read, and no later ingest tells of them.
  if (result.skipped) log(ctx, `${transcript}: ${skippedLinesWarning(result.skipped)}`);
  if (!result.changed) return '';
  // Building (or rebuilding) a whole index inside a hook could take minutes: leave that to `tsm index`.
  const { withIndexReader } = await import('../index/open-reader.js');
  try {
    withIndexReader(cfg.db, () => undefined, { tsmDir: tsmDir(cfg), vault: cfg.vault });
  } catch (err) {
    if (!isExplained(err)) throw err;
    log(ctx, `wrote ${result.notePath}; not indexed: ${err.message}`);
    return '';
  }
  try {
    await indexSessionNotes(cfg, [result], limit);
  } catch (err) {
    if (!isExplained(err)) throw err;
    log(ctx, `wrote ${result.notePath}; not indexed: ${err.message}`);
  }
  return '';
}

function log(ctx: Context, message: string): void {
  const line = formatLogLine(ctx.event ?? ctx.payload.eventName ?? ctx.req.eventArg ?? null, ctx.payload.sessionId, message);
  writeHookLog(ctx.vault, line, (s) => ctx.stderr.push(s));
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    return readableMessage(err) ?? `${err.name}: ${err.message}${err.stack ? ` (${firstFrame(err.stack)})` : ''}`;
  }
  return String(err);
}

function firstFrame(stack: string): string {
  return stack.split('\n').find((l) => l.trim().startsWith('at '))?.trim() ?? '';
}
