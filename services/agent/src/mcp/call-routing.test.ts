/**
 * Tests for `call-routing.ts`: the rule on its own, without a server. A log sent while a call's
 * own work runs is that call's; one from anywhere else goes to the only call running, or, when
 * several run, once to each of their turns and to no call. `hub.test.ts` checks it over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import type { ServerLogMessage } from '../types.js';
import { createCallRouter, type RoutedCall } from './call-routing.js';
import type { LogMessage } from './connect.js';
import { silentLogger } from './test-support/logger.js';

interface Recorder extends RoutedCall {
  logs: unknown[];
  inputs: string[];
}

function recorder(onServerLog?: (event: ServerLogMessage) => void): Recorder {
  const logs: unknown[] = [];
  const inputs: string[] = [];
  return {
    logs,
    inputs,
    log: (message) => logs.push(message.data),
    input: (request, answer) => inputs.push(`${request.message}: ${answer.action}`),
    ...(onServerLog && { onServerLog }),
  };
}

const info = (data: string): LogMessage => ({ level: 'info', data });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A call that stays open until `release()` is called. */
function held() {
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { release, done };
}

describe('createCallRouter', () => {
  it("gives a log sent from a call's own work to that call, even while another call runs", async () => {
    const router = createCallRouter('s', silentLogger());
    const a = recorder();
    const b = recorder();
    await Promise.all([
      router.run(a, async () => {
        await tick();
        router.log(info('from a'));
      }),
      router.run(b, async () => {
        await tick();
        router.log(info('from b'));
        router.input({ server: 's', message: 'ok?', schema: {} }, { action: 'accept', content: {} });
      }),
    ]);
    expect([a.logs, b.logs]).toEqual([['from a'], ['from b']]);
    expect([a.inputs, b.inputs]).toEqual([[], ['ok?: accept']]);
  });

  it('gives a log from no call to the only call running', async () => {
    const router = createCallRouter('s', silentLogger());
    const a = recorder();
    const open = held();
    const running = router.run(a, () => open.done);
    router.log(info('session-wide'));
    open.release();
    await running;
    expect(a.logs).toEqual(['session-wide']);
  });

  it('gives a log from no call to no call while several run, and to each turn once', async () => {
    const router = createCallRouter('s', silentLogger());
    const turnOne: ServerLogMessage[] = [];
    const turnTwo: ServerLogMessage[] = [];
    const sinkOne = (event: ServerLogMessage) => turnOne.push(event);
    const calls = [recorder(sinkOne), recorder(sinkOne), recorder((event) => turnTwo.push(event))];
    const open = held();
    const running = calls.map((call) => router.run(call, () => open.done));
    router.log(info('session-wide'));
    open.release();
    await Promise.all(running);
    expect(calls.map((call) => call.logs)).toEqual([[], [], []]);
    expect(turnOne).toEqual([{ server: 's', level: 'info', data: 'session-wide' }]);
    expect(turnTwo).toEqual([{ server: 's', level: 'info', data: 'session-wide' }]);
  });

  it('gives a late log from a finished call to no other call', async () => {
    const router = createCallRouter('s', silentLogger());
    const a = recorder();
    const b = recorder();
    let late = () => {};
    await router.run(a, async () => {
      // Runs in a's context after a has finished, as a stream a left behind would.
      const fired = new Promise<void>((resolve) => {
        late = resolve;
      });
      void fired.then(() => router.log(info('late from a')));
    });
    const open = held();
    const running = router.run(b, () => open.done);
    late();
    await tick();
    open.release();
    await running;
    expect([a.logs, b.logs]).toEqual([[], []]);
  });
});
