// The session model: what a transcript is folded into (transcript.ts) and what a note is rendered from
// (render.ts). Types and constructors only, so every session module can import it without a cycle.

export type ExitStatus = 'ok' | 'error' | 'refused';

export interface SessionAction {
  tool: string;
  /** The action's subject on one line: path, command, pattern, query or description ('' for name-only tools). */
  summary: string;
  /** Read/Edit/Write/MultiEdit/NotebookEdit: the file; Grep/Glob: the search scope. Relative to cwd when inside it. */
  path?: string;
  /** Bash: the whole command (cleaned, bounded). */
  command?: string;
  /**
   * Set once the tool's result line has been seen. `refused`: the user declined the tool use, so it never
   * ran (not in the files and commands lists).
   */
  exitStatus?: ExitStatus;
  /** A failed tool use (`error`): the line of its result that says why (tools.ts errorLine), cleaned and short. */
  error?: string;
  /** The `tool_use` id, so a result arriving later (even in a later ingest) finds its action. */
  toolUseId?: string;
  /** ExitPlanMode: the plan put to the user (markdown, redacted, bounded: tools.ts), and what became of it. */
  plan?: string;
  planOutcome?: PlanOutcome;
}

/**
 * What the user did with a plan (ExitPlanMode's result): approved it as it was, approved it after editing it
 * (Claude Code's Ctrl+G: the plan kept is the edited one), or rejected it. Unset until the result is seen.
 */
export type PlanOutcome = 'approved' | 'approved-edited' | 'rejected';

export interface SessionPrompt {
  /** 1-based prompt number; 0 for activity recorded before the first prompt (a transcript cut at its start). */
  n: number;
  text: string;
  timestamp: string | null;
  actions: SessionAction[];
  /** The assistant's last text for this prompt, untrimmed (the renderer trims). */
  answer: string;
  /** `message.id` of the message `answer` came from: later lines of the same message extend it. */
  answerMessageId?: string | null;
  /**
   * Files a subagent of this prompt read or edited (its Read/Edit/Write… tool uses, streamed as
   * `agent_progress`): in the frontmatter's file lists, not among the actions, where the Task line stands
   * for the agent's work.
   */
  agentFiles?: SessionAction[];
}

export interface SessionModel {
  sessionId: string;
  project: string;
  cwd: string | null;
  gitBranch: string | null;
  /** ISO timestamps: the earliest and latest seen on any line. */
  started: string | null;
  ended: string | null;
  prompts: SessionPrompt[];
  /** Derived from the actions: files read / edited successfully, distinct Bash commands that ran (one line each). */
  filesRead: string[];
  filesEdited: string[];
  commands: string[];
  /**
   * `<private>` (or `<system-reminder>`) tags left open by the last text block of assistant message
   * `messageId`: the next block of the same message starts inside them. Tag names only, never text.
   */
  hiddenCarry?: { messageId: string; tags: string } | null;
}

export const UNKNOWN_PROJECT = 'unknown';

/** Last path component of a working directory, for either separator, on one line (it goes into the title). */
export function projectName(cwd: string | null): string {
  const parts = (cwd ?? '').split(/[\\/]+/).map((p) => p.replace(/\s+/g, ' ').trim()).filter((p) => p !== '');
  return parts.at(-1) ?? UNKNOWN_PROJECT;
}

export function emptyModel(sessionId: string): SessionModel {
  return {
    sessionId,
    project: UNKNOWN_PROJECT,
    cwd: null,
    gitBranch: null,
    started: null,
    ended: null,
    prompts: [],
    filesRead: [],
    filesEdited: [],
    commands: [],
  };
}

