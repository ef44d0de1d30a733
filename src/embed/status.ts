// What `tsm doctor` and `tsm model list` say about neural embeddings without loading a model: is the
// runtime there, is the model folder the settings name complete. Reads files only.
import { existsSync } from 'node:fs';
import type { DoctorProblem } from '../core/types.js';
import { readModelFolder } from './model-folder.js';
import { knownModel, modelDirFor } from './models.js';
import { findRuntime, missingRuntimeHint, runtimeSearchPath, type RuntimeLocation } from './runtime.js';

export interface ModelSettings {
  model: string;
  modelDir: string | null;
}

export interface EmbeddingStatus {
  runtime: RuntimeLocation | null;
  model: { name: string; dir: string; userFolder: boolean; ok: boolean; problem: string | null; revision: string | null };
}

export function embeddingStatus(settings: ModelSettings, env: NodeJS.ProcessEnv = process.env): EmbeddingStatus {
  const dir = modelDirFor(settings, env);
  const userFolder = settings.modelDir !== null;
  let problem: string | null = null;
  let revision: string | null = null;
  try {
    revision = readModelFolder(dir, userFolder ? {} : { name: settings.model }).spec.revision;
  } catch (err) {
    problem = (err as Error).message;
  }
  return { runtime: findRuntime(runtimeSearchPath(env)), model: { name: settings.model, dir, userFolder, ok: problem === null, problem, revision } };
}

/**
 * Doctor's findings. Semantic search is opt-in: with neither runtime nor model it is one `info` saying how
 * to add both; once the user has taken a step (pulled a model, named a folder), a missing part is a warning.
 */
export function embeddingChecks(settings: ModelSettings, env: NodeJS.ProcessEnv = process.env): DoctorProblem[] {
  const s = embeddingStatus(settings, env);
  const pullCmd = `tsm model pull${knownModel(settings.model) && !s.model.userFolder ? ` ${settings.model}` : ''}`;
  const started = s.model.userFolder || s.model.ok || existsSync(s.model.dir);
  const out: DoctorProblem[] = [];
  if (!s.runtime && !started) {
    return [
      {
        check: 'embeddings',
        severity: 'info',
        message: 'neural semantic search is not set up (optional): no ONNX runtime, no embedding model',
        fix: `run \`tsm model setup\` and \`${pullCmd}\` (docs/embeddings.md)`,
      },
    ];
  }
  if (!s.runtime) {
    out.push({ check: 'embeddings', severity: 'warning', message: 'the ONNX runtime is not installed, so the embedding model cannot run', fix: missingRuntimeHint(env) });
  }
  if (!s.model.ok) {
    out.push({ check: 'embeddings', severity: started ? 'warning' : 'info', message: `the embedding model is not usable: ${s.model.problem}`, fix: s.model.userFolder ? `fix the folder, or remove "modelDir" from .tsm/config.json and run \`${pullCmd}\`` : `run \`${pullCmd}\`` });
  }
  return out;
}
