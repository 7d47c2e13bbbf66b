import { describe, expect, it } from 'vitest';
import { DEFAULT_CASES, parseEvalArgs, UsageError } from './args.js';

describe('parseEvalArgs', () => {
  it('defaults to the catalogue, one attempt, every case must pass', () => {
    expect(parseEvalArgs([])).toEqual({
      cases: [DEFAULT_CASES],
      repeat: 1,
      min: 1,
      json: false,
      concurrency: 4,
      lint: false,
      coverage: true,
    });
  });

  it('reads every flag', () => {
    expect(
      parseEvalArgs([
        '--cases',
        'a',
        '--cases',
        'b',
        '--only',
        'weather',
        '--repeat',
        '3',
        '--min',
        '90%',
        '--json',
        '--save',
        's.json',
        '--compare',
        'c.json',
        '--concurrency',
        '1',
      ]),
    ).toEqual({
      cases: ['a', 'b'],
      only: 'weather',
      repeat: 3,
      min: 0.9,
      json: true,
      save: 's.json',
      compare: 'c.json',
      concurrency: 1,
      lint: false,
      coverage: false,
    });
    expect(parseEvalArgs(['--lint'])).toMatchObject({ lint: true });
    expect(parseEvalArgs(['--discovery', 'compare'])).toMatchObject({ discovery: 'compare' });
    expect(parseEvalArgs(['--help'])).toBe('help');
  });

  it.each([
    ['--min', '0.85', 0.85],
    ['--min', '85', 0.85],
    ['--min', '100%', 1],
    ['--min', '0', 0],
  ])('reads %s %s as %d', (flag, value, share) => {
    expect(parseEvalArgs([flag, value]).valueOf()).toMatchObject({ min: share });
  });

  it.each([
    [['--repeat', '0'], /--repeat takes a whole number from 1 to 20/],
    [['--repeat', '2.5'], /--repeat/],
    [['--repeat', '1e9'], /--repeat/],
    [['--min', 'most'], /--min takes a share/],
    [['--min', '150%'], /--min/],
    [['--min=-1'], /--min/],
    [['--repeat'], /argument missing/],
    [['--concurrency', '100'], /--concurrency/],
    [['weather'], /unexpected argument "weather"/],
    [['--discovery', 'maybe'], /--discovery takes off, on or compare, not "maybe"/],
  ])('refuses %j with what to type instead', (argv, message) => {
    expect(() => parseEvalArgs(argv)).toThrow(UsageError);
    expect(() => parseEvalArgs(argv)).toThrow(message);
  });

  it('refuses an unknown flag', () => {
    expect(() => parseEvalArgs(['--bogus'])).toThrow(UsageError);
    expect(() => parseEvalArgs(['--bogus'])).toThrow(/Unknown option '--bogus'.*; see pnpm eval --help/);
  });
});
