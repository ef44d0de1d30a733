// The marker the redactor (redact.ts) puts in a secret's place. On its own so that the cuts (chars.ts) know it
// without loading the rules.
export const REDACTED = '[REDACTED]';
