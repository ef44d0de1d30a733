// Folds Claude Code transcript lines (JSONL) into a session model. Defensive: a transcript is written
// while we read it, its format changes between Claude Code versions, and any line may be junk.

import { redactForNote, openHiddenTags } from './redact.js';
import { stripControls } from '../text/controls.js';
import { commandSummary, describeToolUse, EDIT_TOOLS, errorLine, questionsSummary, READ_TOOLS, setPlan } from './tools.js';
import { promptFromUserText, toolResultBlocks, userText, type UserContent } from './user-message.js';
import { emptyModel, projectName, type SessionAction, type SessionModel, type SessionPrompt } from './model.js';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

const SESSION_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Folds transcript lines into the model. `model` may be a previous state (incremental ingest); it is not
 * modified. Blank lines are passed over; a line that is not a JSON object (invalid JSON, a cut line, `42`,
 * `[]`) is skipped, and foldTranscriptLines counts it for the warning its caller records (nothing else of
 * the transcript is lost).
 */
export function applyTranscriptLines(model: SessionModel | null, lines: string[], fallbackSessionId: string): SessionModel {
  return foldTranscriptLines(model, lines, fallbackSessionId).model;
}

/** Lines that were neither blank nor a JSON object: how many, and the 0-based index (in the lines given) of the first. */
export interface SkippedLines {
  count: number;
  first: number;
}

/** applyTranscriptLines, also telling which lines it skipped (null when none was). */
export function foldTranscriptLines(model: SessionModel | null, lines: string[], fallbackSessionId: string): { model: SessionModel; skipped: SkippedLines | null } {
  const next: SessionModel = model ? structuredClone(model) : emptyModel(fallbackSessionId);
  let skipped: SkippedLines | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const entry = parseLine(lines[i]);
    if (entry) applyEntry(next, entry, fallbackSessionId);
    else if (skipped) skipped.count++;
    else skipped = { count: 1, first: i };
  }
  deriveLists(next);
  return { model: next, skipped };
}

/** The line's JSON object, or null when it is not one (invalid JSON, or JSON of another kind). */
function parseLine(line: string): Json | null {
  try {
    // A byte order mark is no part of the line: a transcript saved by a Windows tool (UTF-8 with a BOM), or two
    // such files joined, lost its first line, the session's first prompt, as "not a JSON object".
    const value: unknown = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function applyEntry(model: SessionModel, entry: Json, fallbackSessionId: string): void {
  noteSessionFacts(model, entry, fallbackSessionId);
  if (entry.isSidechain === true) return; // a subagent's own conversation, not this session's
  if (entry.type === 'user') applyUser(model, entry);
  else if (entry.type === 'assistant') applyAssistant(model, entry);
  else if (entry.type === 'progress') applyAgentProgress(model, entry);
  else if (entry.type === 'attachment') applyQueuedPrompt(model, entry);
  // system, other progress, other attachments, file-history-snapshot, summary, queue operations, unknown types:
  // metadata only.
}

/**
 * What the user typed while Claude was working, handed to the running turn: Claude Code 2.1 writes it as an
 * attachment, not as a user line (`{"type":"attachment","attachment":{"type":"queued_command","prompt":"also
 * check the tests","commandMode":"prompt","origin":{"kind":"human"}}}`, the `queue-operation` lines before it
 * only mark the queue), so it was missing from the note: what Claude did after it went to the prompt before.
 * A queued task notification (another commandMode) or a peer's message (another origin) was not typed.
 */
function applyQueuedPrompt(model: SessionModel, entry: Json): void {
  const queued = isRecord(entry.attachment) && entry.attachment.type === 'queued_command' ? entry.attachment : null;
  if (queued === null || (queued.commandMode !== undefined && queued.commandMode !== 'prompt')) return;
  if (queued.origin !== undefined && !(isRecord(queued.origin) && queued.origin.kind === 'human')) return;
  const text = promptFromUserText(userText(queued.prompt as UserContent));
  if (text !== null) addPrompt(model, text, entry);
}

/**
 * A subagent's (Task tool) messages as Claude Code streams them into the session's own transcript (2.1.38:
 * `progress` lines, `data.type` "agent_progress", `data.message` one message of the agent, `parentToolUseID`
 * the Task call). The files it read or edited were looked at or changed for this session, so they go into
 * files_read / files_edited (what `file_history` asks of a session); its other tool uses (`ls`, `git log`…)
 * stay out, as its whole transcript (`agent-*.jsonl`, `isSidechain`) does.
 */
function applyAgentProgress(model: SessionModel, entry: Json): void {
  const data = isRecord(entry.data) ? entry.data : null;
  const agentMessage = data?.type === 'agent_progress' && isRecord(data.message) ? data.message : null;
  const message = agentMessage ? messageOf(agentMessage) : null;
  if (!agentMessage || !message) return;
  if (agentMessage.type === 'user') {
    applyToolResults(model, toolResultBlocks(message.content as UserContent), agentMessage.toolUseResult);
    return;
  }
  if (agentMessage.type !== 'assistant' || !Array.isArray(message.content)) return;
  const taskId = nonEmpty(entry.parentToolUseID);
  const prompt = (taskId === null ? undefined : promptOfToolUse(model, taskId)) ?? currentPrompt(model);
  for (const block of message.content) {
    const name = isRecord(block) && block.type === 'tool_use' ? nonEmpty(block.name) : null;
    if (name === null || !(READ_TOOLS.has(name) || EDIT_TOOLS.has(name))) continue;
    const id = nonEmpty(block.id) ?? undefined;
    const files = (prompt.agentFiles ??= []);
    if (id && holdsToolUse(files, id)) continue; // the same block written twice
    pushAction(files, describeToolUse(name, isRecord(block.input) ? block.input : {}, model.cwd, id));
  }
}

/**
 * The session id the lines carry: that of the first JSON object line with one, as the model takes it (for a
 * file not named by its session id), or null. Ingest keys a transcript's state by it (ingest.ts stateKey).
 */
export function carriedSessionId(lines: string[]): string | null {
  for (const line of lines) {
    const id = line.trim() === '' ? null : nonEmpty(parseLine(line)?.sessionId);
    if (id) return sanitizeId(id);
  }
  return null;
}

/**
 * Whether the lines are a sub-agent's own transcript, and whose: the first JSON object line carrying a session
 * id is marked `isSidechain: true`. Claude Code writes every line of a sub-agent's file so (the Task tool's
 * agents, the compaction summariser: `agent-<agentId>.jsonl`, since 2.1 in `<session id>/subagents/`), with
 * the parent session's id and the agent's `agentId`; a session's own transcript has `isSidechain: false`.
 */
export function subAgentOf(lines: string[]): { sessionId: string; agentId: string | null } | null {
  for (const line of lines) {
    const entry = line.trim() === '' ? null : parseLine(line);
    const id = nonEmpty(entry?.sessionId);
    if (!entry || !id) continue;
    if (entry.isSidechain !== true) return null;
    const agentId = nonEmpty(entry.agentId);
    return { sessionId: sanitizeId(id), agentId: agentId === null ? null : sanitizeId(agentId) };
  }
  return null;
}

function noteSessionFacts(model: SessionModel, entry: Json, fallbackSessionId: string): void {
  // Claude Code names a transcript `<session id>.jsonl`: such a name is the id. Otherwise (a renamed copy,
  // an `agent-….jsonl` subagent file) the first id the lines carry replaces the caller's guess (carriedSessionId).
  const sessionId = nonEmpty(entry.sessionId);
  if (sessionId && model.sessionId === fallbackSessionId && !SESSION_UUID.test(fallbackSessionId)) {
    model.sessionId = sanitizeId(sessionId);
  }
  const cwd = nonEmpty(entry.cwd);
  if (cwd && model.cwd === null) {
    model.cwd = redactForNote(stripControls(cwd));
    model.project = projectName(model.cwd);
  }
  const branch = nonEmpty(entry.gitBranch);
  if (branch) model.gitBranch = redactForNote(stripControls(branch));
  const timestamp = nonEmpty(entry.timestamp);
  if (timestamp && !Number.isNaN(Date.parse(timestamp))) {
    if (model.started === null || Date.parse(timestamp) < Date.parse(model.started)) model.started = timestamp;
    if (model.ended === null || Date.parse(timestamp) > Date.parse(model.ended)) model.ended = timestamp;
  }
}

function sanitizeId(id: string): string {
  return stripControls(id).replace(/\s+/g, '').slice(0, 200);
}

function messageOf(entry: Json): Json | null {
  return isRecord(entry.message) ? entry.message : null;
}

function applyUser(model: SessionModel, entry: Json): void {
  const content = messageOf(entry)?.content as UserContent;
  const results = toolResultBlocks(content);
  if (results.length > 0) {
    applyToolResults(model, results, entry.toolUseResult);
    // Refusing a tool use, the user may type what to do instead: Claude Code hands that text to the model
    // inside the tool result. It is what the user asked from then on, so it is the next prompt.
    for (const feedback of results.map(rejectionFeedback)) {
      const text = feedback === null ? null : promptFromUserText(feedback);
      if (text !== null) addPrompt(model, text, entry);
    }
    return;
  }
  // Expanded skill/command bodies, caveats and compaction summaries are generated, not typed.
  if (entry.isMeta === true || entry.isCompactSummary === true) return;
  const text = promptFromUserText(userText(content));
  if (text === null) return;
  addPrompt(model, text, entry);
}

function addPrompt(model: SessionModel, text: string, entry: Json): void {
  // Prompts are numbered from 1; only the first can be prompt 0 (activity before any prompt: currentPrompt).
  // Counted by filtering every prompt, a transcript of 50,000 prompts took 32 s to ingest (12,500: 2.2 s).
  const n = model.prompts.length - (model.prompts[0]?.n === 0 ? 1 : 0) + 1;
  model.prompts.push({ n, text, timestamp: nonEmpty(entry.timestamp), actions: [], answer: '', answerMessageId: null });
}

/**
 * How Claude Code's tool result starts when the user refused the tool use (declined the permission prompt),
 * alone or followed by what the user typed instead (the text after the colon); the line's `toolUseResult` is
 * then "User rejected tool use". Claude Code's own check for a refused call reads the same two.
 */
const REFUSAL = "The user doesn't want to proceed with this tool use.";
const REFUSED_LINE = 'User rejected tool use';
const REJECTED_WITH_FEEDBACK = new RegExp(`^${REFUSAL.replace(/[.]/g, '\\.')}[^\\n]*?the user said:\\n`);
/** AskUserQuestion's "chat about this" answer comes the same way, but its text is Claude Code's, not typed. */
const GENERATED_FEEDBACK = /^The user wants to clarify these questions\./;

/** A tool result's text: a string, or its text blocks joined. */
function resultText(block: Json): string {
  const content = block.content;
  return typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n')
      : '';
}

/** What the user typed when refusing this tool use, or null. */
function rejectionFeedback(block: Json): string | null {
  const text = resultText(block);
  const m = REJECTED_WITH_FEEDBACK.exec(text);
  if (!m) return null;
  const feedback = text.slice(m[0].length).trim();
  return feedback === '' || GENERATED_FEEDBACK.test(feedback) ? null : feedback;
}

function applyToolResults(model: SessionModel, results: Json[], toolUseResult: unknown): void {
  // The line-level `toolUseResult` describes the line's result; it only disambiguates a single block.
  const lineFailed =
    results.length === 1 &&
    ((typeof toolUseResult === 'string' && /^\s*Error\b/.test(toolUseResult)) ||
      (isRecord(toolUseResult) && toolUseResult.interrupted === true));
  for (const block of results) {
    const id = nonEmpty(block.tool_use_id);
    const action = id ? findAction(model, id) : null;
    if (!action) continue;
    // A refusal is an error result saying so (Claude Code's own test: its text, or the line's toolUseResult).
    const refused =
      block.is_error === true && (resultText(block).startsWith(REFUSAL) || (results.length === 1 && toolUseResult === REFUSED_LINE));
    action.exitStatus = refused ? 'refused' : block.is_error === true || lineFailed ? 'error' : 'ok';
    const error = action.exitStatus === 'error' ? errorLine(resultText(block)) : null;
    if (error !== null) action.error = error;
    else delete action.error;
    // The user's answers are in the line's toolUseResult, which describes a single result only.
    if (action.tool === 'AskUserQuestion' && action.exitStatus === 'ok' && results.length === 1 && isRecord(toolUseResult)) {
      action.summary = questionsSummary(toolUseResult.questions, toolUseResult.answers) || action.summary;
    }
    if (action.tool === 'ExitPlanMode') applyPlanResult(action, results.length === 1 ? toolUseResult : undefined);
  }
}

/**
 * What became of a plan (ExitPlanMode): refused is rejected; a result that went through is approved, unless
 * it waits for a team lead's approval (`awaitingLeaderApproval`, Claude Code's agent teams). The plan the
 * result carries replaces the one asked with: it is the one approved, with the user's edits.
 */
function applyPlanResult(action: SessionAction, toolUseResult: unknown): void {
  const result = isRecord(toolUseResult) ? toolUseResult : {};
  if (action.exitStatus === 'ok') setPlan(action, result.plan);
  if (action.exitStatus === 'refused') action.planOutcome = 'rejected';
  else if (action.exitStatus === 'ok' && result.awaitingLeaderApproval !== true) {
    action.planOutcome = result.planWasEdited === true ? 'approved-edited' : 'approved';
  } else delete action.planOutcome;
}

/** The action (or a subagent's file action) of a tool use id, the latest prompts first. */
function findAction(model: SessionModel, toolUseId: string): SessionAction | null {
  for (let p = model.prompts.length - 1; p >= 0; p--) {
    for (const actions of [model.prompts[p].agentFiles ?? [], model.prompts[p].actions]) {
      for (let a = actions.length - 1; a >= 0; a--) if (actions[a].toolUseId === toolUseId) return actions[a];
    }
  }
  return null;
}

/**
 * The prompt whose actions hold a tool use id, the latest first (a subagent's Task call is almost always the
 * running prompt's). Each prompt's ids are a Set (idsOf): checking every action of every prompt, 30,000
 * Task calls whose subagents read a file took 2.2 s to fold.
 */
function promptOfToolUse(model: SessionModel, toolUseId: string): SessionPrompt | undefined {
  for (let p = model.prompts.length - 1; p >= 0; p--) if (holdsToolUse(model.prompts[p].actions, toolUseId)) return model.prompts[p];
  return undefined;
}

/** The prompt assistant activity belongs to; activity before any prompt goes to prompt 0. */
function currentPrompt(model: SessionModel): SessionPrompt {
  const last = model.prompts.at(-1);
  if (last) return last;
  const orphan: SessionPrompt = { n: 0, text: '', timestamp: null, actions: [], answer: '', answerMessageId: null };
  model.prompts.push(orphan);
  return orphan;
}

function applyAssistant(model: SessionModel, entry: Json): void {
  const message = messageOf(entry);
  if (!message) return;
  const blocks: unknown[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content : [];
  // One API message is written as one line per content block, all sharing message.id.
  const messageId = nonEmpty(message.id) ?? nonEmpty(entry.uuid);
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      // One message's blocks arrive on several lines: a private span opened in one closes in a later one.
      const carry = messageId !== null && model.hiddenCarry?.messageId === messageId ? model.hiddenCarry.tags : '';
      const raw = carry + stripControls(block.text);
      const open = openHiddenTags(raw);
      model.hiddenCarry = messageId !== null && open !== '' ? { messageId, tags: open } : null;
      const text = redactForNote(raw).trim();
      if (text === '') continue;
      const prompt = currentPrompt(model);
      if (messageId !== null && prompt.answerMessageId === messageId && prompt.answer !== '') {
        prompt.answer += '\n\n' + text;
      } else {
        prompt.answer = text;
        prompt.answerMessageId = messageId;
      }
    } else if (block.type === 'tool_use') {
      const prompt = currentPrompt(model);
      const id = nonEmpty(block.id) ?? undefined;
      if (id && holdsToolUse(prompt.actions, id)) continue; // the same block written twice
      const input = isRecord(block.input) ? block.input : {};
      pushAction(prompt.actions, describeToolUse(nonEmpty(block.name) ?? 'unknown', input, model.cwd, id));
    }
    // thinking, redacted_thinking, server tool blocks: never written.
  }
}

/**
 * The tool use ids of a list of actions, made on first use and kept up by pushAction, for as long as the
 * list lives (one fold: applyTranscriptLines clones the model). Checked with Array.some, one prompt of
 * 100,000 tool uses (a long agent run, 200,000 lines) took 27 s to ingest.
 */
const toolUseIds = new WeakMap<SessionAction[], Set<string>>();

function idsOf(actions: SessionAction[]): Set<string> {
  let ids = toolUseIds.get(actions);
  if (!ids) {
    ids = new Set(actions.flatMap((a) => (a.toolUseId ? [a.toolUseId] : [])));
    toolUseIds.set(actions, ids);
  }
  return ids;
}

function holdsToolUse(actions: SessionAction[], id: string): boolean {
  return idsOf(actions).has(id);
}

function pushAction(actions: SessionAction[], action: SessionAction): void {
  if (action.toolUseId) idsOf(actions).add(action.toolUseId);
  actions.push(action);
}

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

function deriveLists(model: SessionModel): void {
  // A prompt's subagent files follow its own actions (agentFiles holds file tools only: no commands).
  const actions = model.prompts.flatMap((p) => [...p.actions, ...(p.agentFiles ?? [])]);
  // A refused tool use never ran: its file is not read or edited, its command not run. A failed command did
  // run (it is listed); a failed read or edit touched nothing.
  const ran = (a: SessionAction) => a.exitStatus !== 'refused';
  const succeeded = (a: SessionAction) => ran(a) && a.exitStatus !== 'error' && a.path !== undefined && a.path !== '';
  model.filesRead = distinct(actions.filter((a) => READ_TOOLS.has(a.tool) && succeeded(a)).map((a) => a.path as string));
  model.filesEdited = distinct(actions.filter((a) => EDIT_TOOLS.has(a.tool) && succeeded(a)).map((a) => a.path as string));
  model.commands = distinct(
    actions.filter((a) => ran(a) && a.command !== undefined && a.command !== '').map((a) => commandSummary(a.command as string)),
  );
}

/**
 * Prompts numbered `from` to `to`, with the file and command lists of those prompts only (a continuation note,
 * or a note closed at its size).
 */
export function sliceModel(model: SessionModel, from: number, to = Infinity): SessionModel {
  const { prompts, ...rest } = model;
  const next: SessionModel = { ...structuredClone(rest), prompts: structuredClone(prompts.filter((p) => p.n >= from && p.n <= to)) };
  deriveLists(next);
  return next;
}
