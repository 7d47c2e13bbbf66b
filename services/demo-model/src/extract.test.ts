/**
 * Tests for the argument finders behind `extract.ts`: parameter kinds read from schemas, places,
 * time zones, arithmetic and titles, each on the message shapes people actually type.
 */
import { describe, expect, it } from 'vitest';
import { extractArguments, firstQuoted, kindOf } from './extract.js';
import { findPlaces, findTimeZones, zoneForPlace } from './places.js';

describe('kindOf', () => {
  it.each([
    ['location', { type: 'string' }, 'place'],
    ['q', { type: 'string', description: 'The city to look up' }, 'place'],
    ['tz', { type: 'string' }, 'timezone'],
    ['zone', { type: 'string', description: 'An IANA time zone, not a city name' }, 'timezone'],
    ['formula', { type: 'string' }, 'expression'],
    ['input', { type: 'string', description: 'An arithmetic expression' }, 'expression'],
    ['task_id', { type: 'integer' }, 'id'],
    ['days', { type: 'integer' }, 'number'],
    ['status', { type: 'string', enum: ['open', 'done'] }, 'enum'],
    ['verbose', { type: ['boolean', 'null'] }, 'boolean'],
    ['title', { type: 'string' }, 'text'],
    ['filters', { type: 'object' }, 'other'],
    ['cursor', { type: 'string' }, 'other'],
    ['after', { type: 'string', description: 'The nextCursor of the previous page' }, 'other'],
  ])('reads %s %j as %s', (name, schema, kind) => {
    expect(kindOf(name, schema)).toBe(kind);
  });
});

describe('extractArguments with a page cursor', () => {
  const listTasks = {
    name: 'list_tasks',
    description: "List the user's tasks with their ids, oldest first.",
    parameters: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['all', 'open', 'done'] },
        cursor: {
          type: 'string',
          description: 'The nextCursor of the previous list_tasks answer, unchanged.',
        },
      },
    },
  };

  it.each([
    'add a task to buy milk then list my tasks',
    'show my tasks about groceries',
    'List my tasks called shopping',
  ])('never fills the cursor from the words of %j', (message) => {
    expect(extractArguments(listTasks, message).calls).toEqual([{}]);
  });
});

describe('findPlaces', () => {
  it('finds capitalised places after a preposition, with accents and connectors', () => {
    expect(findPlaces('weather in São Paulo and Rio de Janeiro?')).toEqual(['São Paulo', 'Rio de Janeiro']);
  });

  it('keeps "New" in "New York" when a preposition vouches for the phrase', () => {
    expect(findPlaces('time in New York')).toEqual(['New York']);
  });

  it('drops words that are not places', () => {
    expect(findPlaces('temperature in Celsius please')).toEqual([]);
    expect(findPlaces('Weather forecast for Oslo Today')).toEqual(['Oslo']);
  });

  it('looks anywhere only when asked to', () => {
    expect(findPlaces('Oslo forecast?')).toEqual([]);
    expect(findPlaces('Oslo forecast?', ['in'], true)).toEqual(['Oslo']);
  });
});

describe('findTimeZones', () => {
  it('takes literal IANA names and UTC first', () => {
    expect(findTimeZones('convert to America/Argentina/Buenos_Aires').zones).toEqual([
      'America/Argentina/Buenos_Aires',
    ]);
    expect(findTimeZones('what is the time in UTC').zones).toEqual(['UTC']);
  });

  it('maps city names to zones through Intl, accents folded', () => {
    expect(findTimeZones('time in São Paulo').zones).toEqual(['America/Sao_Paulo']);
    expect(zoneForPlace('Tokyo, Japan')).toBe('Asia/Tokyo');
  });

  it('reports places it cannot map', () => {
    expect(findTimeZones('time in Bergen')).toEqual({ zones: [], unresolved: ['Bergen'] });
  });
});

describe('firstQuoted', () => {
  it('takes double, typographic and spaced single quotes, not apostrophes', () => {
    expect(firstQuoted('add "Buy milk" now')).toBe('Buy milk');
    expect(firstQuoted('add “Buy milk”')).toBe('Buy milk');
    expect(firstQuoted("add 'Buy milk' please")).toBe('Buy milk');
    expect(firstQuoted("what's the time, it's late")).toBeUndefined();
  });
});

describe('extractArguments', () => {
  it('leaves optional parameters out when the message does not name them', () => {
    const tool = {
      name: 'forecast',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          days: { type: 'integer' },
          units: { enum: ['metric', 'imperial'] },
        },
        required: ['city'],
      },
    };
    expect(extractArguments(tool, 'forecast for Oslo').calls).toEqual([{ city: 'Oslo' }]);
    expect(extractArguments(tool, 'forecast for Oslo, 4 days, imperial').calls).toEqual([
      { city: 'Oslo', days: 4, units: 'imperial' },
    ]);
  });

  it('takes an explicit "name: value" for any parameter', () => {
    const tool = {
      name: 'lookup',
      parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
    };
    expect(extractArguments(tool, 'lookup sku: AB-123').calls).toEqual([{ sku: 'AB-123' }]);
  });

  it('refuses a non-integer for an integer parameter', () => {
    const tool = {
      name: 'pick',
      parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    };
    expect(extractArguments(tool, 'pick id 2.5').missing).toEqual([{ name: 'id' }]);
  });

  it('accepts a tool without parameters', () => {
    expect(extractArguments({ name: 'ping' }, 'ping it').calls).toEqual([{}]);
  });
});
