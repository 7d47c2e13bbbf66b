// @ts-check
// Tests of scripts/lib/expected-output.mjs; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareOutput, normalise } from './expected-output.mjs';

const QUOTED_ASK = `note:   started the workshop MCP server at http://127.0.0.1:35223/mcp (process 10334, tasks in services/mcp-server/data).
mcp:    workshop → http://127.0.0.1:35223/mcp  (protocol 2026-07-28, modern era)

question: What is 6 * 7?
┌─ tool call 1: calculate → workshop/calculate   227 ms   ok
│ structuredContent: {"expression":"6 * 7","result":42,"formatted":"42"}
answer: Here is what calculate returned for expression "6 * 7": result 42. (offline demo model)`;

const WEATHER = `┌─ tool call 1: get_weather → workshop/get_weather   457 ms   ok
│ structuredContent: {"place":{"name":"Oslo"},"current":{"temperatureC":1.6,"feelsLikeC":-5.1,"conditions":"Light rain"},"forecast":[{"date":"2026-11-21","minC":-5.4}]}
│ content[text 2]:   Oslo, Norway: 1.6 °C, light rain now; next 3 day(s) -5.4 to 6.9 °C (offline dataset, not a live forecast).
answer: name "Oslo", conditions "Light rain", temperatureC 1.6, feelsLikeC -5.1, humidityPercent 81, windSpeedKmh 23.5.`;

describe('compareOutput', () => {
  it('passes when only volatile values differ', () => {
    const actual = QUOTED_ASK.replaceAll('35223', '41007')
      .replace('10334', '99')
      .replace('227 ms', '1093 ms');
    const result = compareOutput(QUOTED_ASK, actual);
    assert.equal(result.diff, '');
    assert.ok(result.ok);
  });

  it('passes when the weather of another day and hour differs, and the call id and time', () => {
    const actual = WEATHER.replace('457 ms', '31 ms')
      .replace(
        '"temperatureC":1.6,"feelsLikeC":-5.1,"conditions":"Light rain"',
        '"temperatureC":-0.8,"feelsLikeC":-5.6,"conditions":"Clear sky"',
      )
      .replace('2026-11-21', '2026-11-23')
      .replace('1.6 °C, light rain now', '-0.8 °C, clear sky now')
      .replace('-5.4 to 6.9 °C', '-5.4 to 5.4 °C')
      .replace(
        'conditions "Light rain", temperatureC 1.6, feelsLikeC -5.1',
        'conditions "Clear sky", temperatureC -0.8, feelsLikeC -5.6',
      )
      .replace('humidityPercent 81, windSpeedKmh 23.5', 'humidityPercent 58, windSpeedKmh 10');
    assert.ok(compareOutput(WEATHER, actual).ok);
  });

  it('fails with a readable diff when a line drifts', () => {
    const quoted =
      '  2. Edit its test beside it, then: pnpm --filter @mcp-workshop/mcp-server test -- echo-text';
    const actual =
      '  2. Edit its test beside it, then: pnpm --filter @mcp-workshop/mcp-server exec vitest run echo-text';
    const result = compareOutput(quoted, actual);
    assert.equal(result.ok, false);
    assert.equal(result.diff, `- ${quoted}\n+ ${actual}`);
  });

  it('fails when a line is missing or added', () => {
    assert.equal(compareOutput('a\nb\nc', 'a\nc').ok, false);
    assert.equal(compareOutput('a\nc', 'a\nb\nc').ok, false);
    assert.match(compareOutput('a\nc', 'a\nb\nc').diff, /^ {2}a\n\+ b\n {2}c$/);
  });

  it('does not hide a change of protocol revision as a date', () => {
    assert.equal(
      compareOutput('(protocol 2026-07-28, modern era)', '(protocol 2025-11-25, legacy era)').ok,
      false,
    );
    assert.equal(compareOutput('"protocolVersion":"2025-11-25"', '"protocolVersion":"2025-06-18"').ok, false);
  });

  it('lets a line of … or ... stand for any number of lines, including none', () => {
    assert.ok(compareOutput('first\n…\nlast', 'first\nx\ny\nlast').ok);
    assert.ok(compareOutput('first\n...\nlast', 'first\nlast').ok);
    assert.ok(compareOutput('first\n…', 'first\nand the rest\nof it').ok);
    assert.equal(compareOutput('first\n…\nlast', 'first\nx\nlost').ok, false);
  });

  it('lets … inside a line stand for the rest of a cut line, or a cut middle', () => {
    assert.ok(compareOutput('{"place":{"name":"Oslo", …', '{"place":{"name":"Oslo","country":"Norway"}}').ok);
    assert.ok(
      compareOutput(
        '"instructions":"Workshop … tools","id":1',
        '"instructions":"Workshop server tools","id":1',
      ).ok,
    );
    assert.equal(
      compareOutput('{"place":{"name":"Oslo", …', '{"place":{"name":"Bergen","country":"Norway"}}').ok,
      false,
    );
  });

  it('ignores the build progress that pnpm ask prints when it builds first', () => {
    const actual = [
      '> mcp-workshop@0.1.0 ask /srv/mcp-workshop',
      "> node scripts/build-if-stale.mjs --run dev/launcher/dist/cli.js ask 'What is 6 * 7?'",
      'build:  turbo run build, 12 packages (no build recorded yet)',
      'build:  still building packages/shared (6 s)',
      'build:  1/12 packages/shared (7 s)',
      "build:  done in 62 s: 12 built, 0 from turbo's cache",
      'answer: 42',
    ].join('\n');
    assert.ok(compareOutput('answer: 42', actual).ok);
    // One space after the colon is somebody's output, not the build's.
    assert.equal(compareOutput('answer: 42', 'build: x\nanswer: 42').ok, false);
  });

  it('ignores blank lines, colours, and the banners of pnpm and turbo', () => {
    const actual = [
      '',
      '> mcp-workshop@0.1.0 ask /srv/mcp-workshop',
      "> turbo run build --output-logs=errors-only 1>&2 && node dev/launcher/dist/cli.js ask 'What is 6 * 7?'",
      '',
      '   • turbo 2.11.11',
      '   • Packages in scope: @mcp-workshop/agent, @mcp-workshop/shared',
      '   • Running build in 8 packages',
      '   • Remote caching disabled',
      ' Tasks:    5 successful, 5 total',
      'Cached:    4 cached, 5 total',
      '  Time:    5.587s ',
      '\u001b[32manswer: 42\u001b[39m   ',
    ].join('\n');
    assert.ok(compareOutput('answer: 42', actual).ok);
  });

  it('reads the repository and scratch paths as <repo>, and temp paths as <tmp>', () => {
    assert.ok(
      compareOutput(
        '"dataDir":"/srv/mcp-workshop/services/mcp-server/data"',
        '"dataDir":"/tmp/check-docs-x1/services/mcp-server/data"',
        {
          roots: ['/srv/mcp-workshop', '/tmp/check-docs-x1'],
        },
      ).ok,
    );
    assert.ok(
      compareOutput('removed /tmp/check-compose-4JAT13 (0.0 s)', 'removed /tmp/check-compose-Zq81Xa (0.1 s)')
        .ok,
    );
  });

  it('rebuilds the quoted block from the real output, keeping the cuts that still match', () => {
    const quoted = 'kept 457 ms\n\n{"a":1, …\nold line\nmiddle\n…\nend';
    const actual = 'kept 12 ms\n\n{"a":1,"b":2}\nnew line\nmiddle\nmore\nend';
    const result = compareOutput(quoted, actual);
    assert.equal(result.ok, false);
    assert.equal(result.diff, '  kept 457 ms\n  {"a":1, …\n- old line\n+ new line\n  middle\n  … (1 line)');
    assert.equal(result.updated, 'kept 12 ms\n\n{"a":1, …\nnew line\nmiddle\n…\nend');
    assert.ok(compareOutput(result.updated, actual).ok);
  });

  it('retakes a cut line from the real run, cut at the same place', () => {
    const quoted = '{"current":{"temperatureC":1.6,"feelsLikeC":-5.1, …\nanswer: old';
    const actual = '{"current":{"temperatureC":-1.4,"feelsLikeC":-6.3,"humidityPercent":58}}\nanswer: new';
    assert.equal(
      compareOutput(quoted, actual).updated,
      '{"current":{"temperatureC":-1.4,"feelsLikeC":-6.3, …\nanswer: new',
    );
  });
});

describe('normalise', () => {
  it('replaces each kind of volatile value with its placeholder', () => {
    assert.equal(
      normalise(
        '{"time":1795274401767,"iso":"2026-11-22T00:23:21+09:00","time":"00:23:21","weekday":"Sunday","unixSeconds":1795274601}',
      ),
      '{"time":<epoch>,"iso":"<timestamp>","time":"<time>","weekday":"<weekday>","unixSeconds":<epoch>}',
    );
    assert.equal(
      normalise(
        '"id": "call_16fb3d3d759ee8a0ea5dc42b", "conversationId": "bf22ee53-6c45-4001-bd86-779b06593a08", "durationMs": 283',
      ),
      '"id": "call_<id>", "conversationId": "<uuid>", "durationMs": <n>',
    );
    assert.equal(normalise('Date: Sat, 21 Nov 2026 15:20:47 GMT'), 'Date: <http-date>');
    assert.equal(
      normalise('at http://localhost:43405/v1 (process 11235)'),
      'at http://localhost:<port>/v1 (process <pid>)',
    );
  });

  it("reads a rate limit's seconds to its reset as volatile, and keeps its quota and window", () => {
    const quoted = [
      'RateLimit: "3-in-1min"; r=0; t=60',
      'RateLimit-Policy: "3-in-1min"; q=3; w=60',
      'Retry-After: 60',
      '{"error":{"message":"Retry in 60 s.","data":{"retryAfterSeconds":60}}}',
    ].join('\n');
    const real = quoted
      .replace('t=60', 't=59')
      .replace('After: 60', 'After: 59')
      .replace(/60\b(?=[ }])/g, '59');
    assert.ok(compareOutput(quoted, real).ok, compareOutput(quoted, real).diff);
    assert.equal(compareOutput(quoted, quoted.replace('q=3', 'q=4')).ok, false);
    assert.equal(compareOutput(quoted, quoted.replace('w=60', 'w=30')).ok, false);
    assert.equal(compareOutput(quoted, quoted.replace('r=0', 'r=1')).ok, false);
  });

  it('keeps the values that are content: results, counts, tool names', () => {
    const line = '{"expression":"6 * 7","result":42,"formatted":"42"} (5 tests) count 3';
    assert.equal(normalise(line), line);
  });
});
