import { afterEach, describe, expect, it } from 'vitest';
import type { Connected } from '../test-support/in-memory.js';
import { connectWithFixtures } from './test-support/connect.js';

describe('conformance notification tools', () => {
  let connected: Connected | undefined;
  afterEach(async () => connected?.close());

  it('sends three info log messages while test_tool_with_logging runs', async () => {
    connected = await connectWithFixtures();
    const { client } = connected;
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params);
    });
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual([
      { level: 'info', data: 'Tool execution started' },
      { level: 'info', data: 'Tool processing data' },
      { level: 'info', data: 'Tool execution completed' },
    ]);
  });

  it('reports progress 0, 50, 100 of 100 when the call carries a progress token', async () => {
    connected = await connectWithFixtures();
    const updates: Array<{ progress: number; total?: number }> = [];
    await connected.client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: (update) => updates.push(update) },
    );
    expect(updates.map(({ progress, total }) => ({ progress, total }))).toEqual([
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
      { progress: 100, total: 100 },
    ]);
  });

  it('completes test_reconnection without error on a transport that cannot close streams', async () => {
    connected = await connectWithFixtures();
    const result = await connected.client.callTool({ name: 'test_reconnection', arguments: {} });
    expect(result.isError).toBeFalsy();
  });
});
