/**
 * @module errors
 * Errors sorted by who can act on them. A `ToolError` is a failure the model can fix (a bad
 * place name, an unknown task id): its message is written for the model and reaches it as an
 * `isError` result. Anything else that escapes a tool is a bug: it is logged, and the model
 * only learns that something went wrong, never the stack or the message.
 */

/** Base class: `name` follows the subclass, so logs and tests can tell errors apart. */
export abstract class WorkshopError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A failure the model can act on. The message reaches the model verbatim, so write it for the model. */
export class ToolError extends WorkshopError {}
