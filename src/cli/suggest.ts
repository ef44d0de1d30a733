// "Did you mean": the closest known name to a mistyped one, for unknown options and commands.

/** Optimal string alignment distance: Levenshtein plus the swap of two neighbours (`versoin` → 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name closest to `typed` (at most a third of its letters off), or null. */
export function closest(typed: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3)) + 1;
  for (const k of known) {
    const dist = editDistance(typed, k);
    if (dist < bestDistance) {
      best = k;
      bestDistance = dist;
    }
  }
  return best;
}

/** What unknownOptionMessage needs of an option table (OptionSpec): a short name, and the values it takes. */
interface ChoiceSpec {
  alias?: string;
  choices?: readonly string[];
}

/**
 * The message for an unknown option: `unknown option --versoin (did you mean --version?)`. One named like a
 * value of an option in `specs` is that value: `tsm search q --json` (as `tsm status --json` is written)
 * says `did you mean -f json?`; it had no close name, and the message went on only to say how to search
 * for the word `--json`.
 */
export function unknownOptionMessage(
  option: string,
  knownLong: readonly string[],
  specs: Record<string, ChoiceSpec> = {},
  commandsOf: Record<string, readonly string[]> = {},
  command: string | null = null,
): string {
  const name = option.replace(/^-+/, '').replace(/=.*$/s, '');
  const owner = option.startsWith('--') ? Object.entries(specs).find(([, s]) => s.choices?.includes(name)) : undefined;
  if (owner) return `unknown option ${option} (did you mean ${owner[1].alias ? `-${owner[1].alias}` : `--${owner[0]}`} ${name}?)`;
  // An option of other commands only (`tsm index --verbose`): the closest name was itself, and the message
  // said "unknown option --verbose (did you mean --verbose?)". Which command takes it is what helps.
  // Negated (`tsm status --no-embed`), it is the option's all the same; not one this command takes unnegated
  // (`tsm search q --no-limit`: search takes --limit).
  const owns = (n: string) => ownersOf(n, commandsOf).length > 0 && (n === name || command === null || !ownersOf(n, commandsOf).includes(command));
  const base = option.startsWith('--') ? [name, name.replace(/^no-/, '')].find(owns) : undefined;
  if (base !== undefined) return `unknown option ${option} (--${base} is an option of ${commandList(ownersOf(base, commandsOf))})`;
  // Never the name just rejected: an option known elsewhere but not to this command is no suggestion.
  const guess = option.startsWith('--') || name.length > 1 ? closest(name, knownLong.filter((k) => k !== name)) : null;
  if (guess === null) return `unknown option ${option}`;
  // A close name this command does not take either (`tsm index --verbos`) is said to be another's.
  const owners = ownersOf(guess, commandsOf);
  const elsewhere = command !== null && owners.length > 0 && !owners.includes(command);
  return `unknown option ${option} (did you mean --${guess}?${elsewhere ? ` an option of ${commandList(owners)}` : ''})`;
}

function ownersOf(name: string, commandsOf: Record<string, readonly string[]>): readonly string[] {
  return Object.hasOwn(commandsOf, name) ? commandsOf[name] : [];
}

/** `tsm search`, `tsm search and tsm related`, `tsm a, tsm b and tsm c`. */
function commandList(commands: readonly string[]): string {
  const named = commands.map((c) => `tsm ${c}`);
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/**
 * The message for a first word that is no command (`tsm bogus --vault v1`): the command is what is wrong,
 * not the options after it, which only mean something to a command.
 */
export function unknownCommandMessage(typed: string, commands: readonly string[]): string {
  const guess = closest(typed, commands);
  return `unknown command ${typed}${guess ? ` (did you mean ${guess}?)` : ''}; the commands: ${commands.join(', ')}`;
}
