/**
 * @module errors.test
 * Unit tests for `errors.ts`: names follow the subclass and causes are kept, for logs and tests.
 */
import { describe, expect, it } from 'vitest';
import { ToolError, WorkshopError } from './errors.js';

describe('ToolError', () => {
  it('is a WorkshopError and an Error named after its class', () => {
    const error = new ToolError('Pick a zone such as "Europe/Oslo".');
    expect(error).toBeInstanceOf(WorkshopError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ToolError');
    expect(error.message).toBe('Pick a zone such as "Europe/Oslo".');
  });

  it('takes the name of a subclass when subclassed', () => {
    class UnknownCityError extends ToolError {}
    expect(new UnknownCityError('x').name).toBe('UnknownCityError');
  });

  it('keeps the cause when one is given', () => {
    const cause = new Error('lookup failed');
    expect(new ToolError('Unknown city.', { cause }).cause).toBe(cause);
  });
});
