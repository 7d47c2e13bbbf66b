/**
 * Tests for `steps.ts`: where a request's order words split it into steps, where clauses of one
 * step part, and the rule that makes a plain "and" wait when a change and a read share a subject.
 */
import { describe, expect, it } from 'vitest';
import { changesState, mustFollow, orderClauses, splitClauses, splitSteps } from './steps.js';
import type { PlannedCall } from './types.js';

describe('splitSteps', () => {
  it.each([
    ['add a task then list my tasks', ['add a task', 'list my tasks']],
    ['add a task and then list my tasks', ['add a task', 'list my tasks']],
    ['add a task, then list my tasks, then delete task 1', ['add a task', 'list my tasks', 'delete task 1']],
    ['First, add a task. Then list my tasks', ['add a task', 'list my tasks']],
    ['add a task; after that, list my tasks', ['add a task', 'list my tasks']],
    ['add a task, and after that list my tasks', ['add a task', 'list my tasks']],
    ['add a task. Afterwards list my tasks', ['add a task', 'list my tasks']],
    ["add a task and once that's done list my tasks", ['add a task', 'list my tasks']],
    ['add a task; when it is done, list my tasks', ['add a task', 'list my tasks']],
    ['add a task, next list my tasks', ['add a task', 'list my tasks']],
    ['add a task and finally list my tasks', ['add a task', 'list my tasks']],
    ['weather in Oslo? Then the time in Tokyo', ['weather in Oslo', 'the time in Tokyo']],
  ])('splits %j into its steps', (text, steps) => {
    expect(splitSteps(text)).toEqual(steps);
  });

  it.each([
    'weather in Oslo next Monday',
    'weather for the next 3 days',
    'remind me to call mom after that meeting',
    'add "milk, then eggs" to my list',
    'weather in Bergen and Oslo',
  ])('leaves %j whole', (text) => {
    expect(splitSteps(text)).toEqual([text]);
  });
});

describe('splitClauses', () => {
  it('splits at "and", "also" and punctuation, but not inside quotes', () => {
    expect(splitClauses('weather in Oslo and also the time in Tokyo; list my tasks')).toEqual([
      'weather in Oslo',
      'the time in Tokyo',
      'list my tasks',
    ]);
    expect(splitClauses('add "milk and eggs" please')).toEqual(['add "milk and eggs" please']);
  });
});

const call = (name: string): PlannedCall => ({ name, arguments: {} });

describe('changesState', () => {
  it.each([
    ['add_task', true],
    ['deleteNote', true],
    ['update-record', true],
    ['complete_task', true],
    ['list_tasks', false],
    ['get_weather', false],
    ['convert_currency', false],
  ])('reads %s as changing: %s', (name, changing) => {
    expect(changesState(name)).toBe(changing);
  });
});

describe('mustFollow', () => {
  it('orders a change and a read of the same kind of thing, either way round', () => {
    expect(mustFollow(call('list_tasks'), call('add_task'))).toBe(true);
    expect(mustFollow(call('add_task'), call('list_tasks'))).toBe(true);
    expect(mustFollow(call('searchNotes'), call('createNote'))).toBe(true);
  });

  it('lets reads, and calls about different things, run together', () => {
    expect(mustFollow(call('get_time'), call('get_weather'))).toBe(false);
    expect(mustFollow(call('get_weather'), call('add_task'))).toBe(false);
    expect(mustFollow(call('list_cities'), call('list_tasks'))).toBe(false);
  });
});

describe('orderClauses', () => {
  it('puts a clause that must wait into a step of its own, and keeps the others together', () => {
    expect(orderClauses([[call('add_task')], [call('get_weather')], [call('list_tasks')]])).toEqual([
      [call('add_task'), call('get_weather')],
      [call('list_tasks')],
    ]);
  });
});
