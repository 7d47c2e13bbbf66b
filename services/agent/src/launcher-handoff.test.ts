import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  awaitLauncher,
  type HandoffChannel,
  HandoffError,
  isStartMessage,
  isWaitingMessage,
  WAITING_MESSAGE,
} from './launcher-handoff.js';

/** The child's end of an IPC channel, as `process` has it: what it sent, and a way to answer. */
class FakeLauncherEnd extends EventEmitter implements HandoffChannel {
  readonly sent: unknown[] = [];
  connected = true;
  send(message: unknown): boolean {
    this.sent.push(message);
    return true;
  }
  disconnect(): void {
    this.connected = false;
    this.emit('disconnect');
  }
  /** The launcher's side: a message arrives, or the launcher's end closes. */
  deliver(message: unknown): void {
    this.emit('message', message);
  }
}

describe('awaitLauncher', () => {
  it('resolves with nothing at once when there is no IPC channel', async () => {
    const noChannel: HandoffChannel = new EventEmitter();
    await expect(awaitLauncher(noChannel)).resolves.toEqual({});
  });

  it('says it is waiting, then resolves with the start message’s variables and closes the channel', async () => {
    const channel = new FakeLauncherEnd();
    const handoff = awaitLauncher(channel);
    expect(channel.sent).toEqual([WAITING_MESSAGE]);
    channel.deliver({ type: 'mcp-workshop/start', env: { MCP_SERVER_URL: 'http://127.0.0.1:4100/mcp' } });
    await expect(handoff).resolves.toEqual({ MCP_SERVER_URL: 'http://127.0.0.1:4100/mcp' });
    expect(channel.connected).toBe(false);
    expect(channel.listenerCount('message')).toBe(0);
  });

  it('ignores messages that are not a well-formed start message', async () => {
    const channel = new FakeLauncherEnd();
    const handoff = awaitLauncher(channel);
    channel.deliver('hello');
    channel.deliver({ type: 'mcp-workshop/start', env: { PORT: 4100 } });
    channel.deliver({ type: 'mcp-workshop/start', env: ['MCP_SERVER_URL'] });
    channel.deliver({ type: 'mcp-workshop/start' });
    channel.deliver({ type: 'something/else', env: {} });
    channel.deliver({ type: 'mcp-workshop/start', env: {} });
    await expect(handoff).resolves.toEqual({});
  });

  it('rejects, saying why, when the launcher goes away before it answers', async () => {
    const channel = new FakeLauncherEnd();
    const handoff = awaitLauncher(channel);
    channel.disconnect();
    await expect(handoff).rejects.toThrow(HandoffError);
    await expect(handoff).rejects.toThrow(/launcher went away/);
  });

  it('rejects at once when the channel closed before it could ask', async () => {
    const channel = new FakeLauncherEnd();
    channel.connected = false;
    await expect(awaitLauncher(channel)).rejects.toThrow(/launcher went away/);
    expect(channel.sent).toEqual([]);
  });

  it('rejects when no start message comes within the time allowed', async () => {
    const channel = new FakeLauncherEnd();
    await expect(awaitLauncher(channel, 20)).rejects.toThrow(/no start message within 0.02 s/);
    expect(channel.listenerCount('message')).toBe(0);
    expect(channel.listenerCount('disconnect')).toBe(0);
  });
});

describe('the handoff messages', () => {
  it('tells a start message and the waiting message from anything else', () => {
    expect(isStartMessage({ type: 'mcp-workshop/start', env: { A: 'b' } })).toBe(true);
    expect(isStartMessage({ type: 'mcp-workshop/start', env: null })).toBe(false);
    expect(isStartMessage(null)).toBe(false);
    expect(isWaitingMessage(WAITING_MESSAGE)).toBe(true);
    expect(isWaitingMessage({ type: 'mcp-workshop/start', env: {} })).toBe(false);
    expect(isWaitingMessage('mcp-workshop/waiting')).toBe(false);
  });
});
