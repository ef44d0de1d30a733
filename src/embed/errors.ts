import { TsmError } from '../core/errors.js';

/** A model folder, runtime or download problem, with the command that fixes it in the message. */
export class EmbedError extends TsmError {
  override name = 'EmbedError';
}
