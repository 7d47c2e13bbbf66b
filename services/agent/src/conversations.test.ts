/**
 * Tests for `ConversationStore`: the bound on conversations (least recently used goes first) and
 * the bound on messages per conversation (whole exchanges go, never half of one).
 */
import { describe, expect, it } from 'vitest';
import { ConversationStore, MAX_MESSAGES_PER_CONVERSATION } from './conversations.js';
import type { ChatMessage } from './llm/provider.js';

/** One exchange: a question, `calls` tool calls with their results, and the answer. */
function exchange(n: number, calls: number): ChatMessage[] {
  const ids = Array.from({ length: calls }, (_, i) => `call_${n}_${i}`);
  const messages: ChatMessage[] = [{ role: 'user', content: `question ${n}` }];
  if (calls > 0) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: ids.map((id) => ({
        id,
        type: 'function',
        function: { name: 'plain_text', arguments: '{}' },
      })),
    });
    for (const id of ids) messages.push({ role: 'tool', tool_call_id: id, content: `result ${id}` });
  }
  messages.push({ role: 'assistant', content: `answer ${n}` });
  return messages;
}

function conversation(exchanges: number, callsEach: number): ChatMessage[] {
  return Array.from({ length: exchanges }, (_, n) => exchange(n, callsEach)).flat();
}

/** Every tool message answers a call made by an assistant message before it. */
function orphanToolMessages(messages: ChatMessage[]): string[] {
  const called = new Set<string>();
  const orphans: string[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) called.add(call.id);
    if (message.role === 'tool' && !called.has(message.tool_call_id)) orphans.push(message.tool_call_id);
  }
  return orphans;
}

describe('ConversationStore', () => {
  it('returns an empty history for a new conversation, then what was saved', () => {
    const store = new ConversationStore(5);
    expect(store.get('a')).toEqual([]);
    const messages = exchange(1, 1);
    store.save('a', messages);
    expect(store.get('a')).toEqual(messages);
    expect(store.get('b')).toEqual([]);
  });

  it('keeps at most maxConversations, dropping the least recently used', () => {
    const store = new ConversationStore(2);
    for (const id of ['a', 'b']) {
      store.get(id);
      store.save(id, exchange(0, 0));
    }
    // Reading "a" makes "b" the least recently used.
    store.get('a');
    store.get('c');
    store.save('c', exchange(0, 0));

    expect(store.size).toBe(2);
    expect(store.get('a')).toHaveLength(2);
    expect(store.get('c')).toHaveLength(2);
    expect(store.get('b')).toEqual([]);
  });

  it('stays within the bound however many conversations pass through', () => {
    const store = new ConversationStore(3);
    for (let i = 0; i < 100; i++) {
      store.get(`c${i}`);
      store.save(`c${i}`, exchange(i, 1));
    }
    expect(store.size).toBe(3);
    expect(store.get('c99')[0]).toEqual({ role: 'user', content: 'question 99' });
  });

  it('stays within the bound when turns overlap (saved after being evicted)', () => {
    const store = new ConversationStore(1);
    // Two turns run at once: "a" is evicted when "b" starts, and saved when its turn ends.
    store.get('a');
    store.get('b');
    store.save('a', exchange(0, 0));
    store.save('b', exchange(1, 0));
    expect(store.size).toBe(1);
    expect(store.get('b')).toEqual(exchange(1, 0));
  });

  it('forgets a conversation on delete', () => {
    const store = new ConversationStore(3);
    store.save('a', exchange(0, 0));
    expect(store.delete('a')).toBe(true);
    expect(store.delete('a')).toBe(false);
    expect(store.get('a')).toEqual([]);
  });

  it('keeps a conversation under the message bound as it is', () => {
    const store = new ConversationStore(1);
    const messages = conversation(10, 2);
    store.save('a', messages);
    expect(store.get('a')).toEqual(messages);
  });

  it('trims a long conversation by whole exchanges, oldest first, leaving no orphan tool message', () => {
    const store = new ConversationStore(1);
    // 7 messages per exchange (question, call, 4 results, answer): 50 of them are 350 messages.
    const messages = conversation(50, 4);
    store.save('a', messages);
    const kept = store.get('a');

    expect(kept.length).toBeLessThanOrEqual(MAX_MESSAGES_PER_CONVERSATION);
    expect(kept.length).toBeGreaterThan(MAX_MESSAGES_PER_CONVERSATION - 7);
    expect(kept[0]?.role).toBe('user');
    expect(orphanToolMessages(kept)).toEqual([]);
    // The newest exchanges survive, unchanged and in order.
    expect(kept).toEqual(messages.slice(messages.length - kept.length));
    expect(kept.at(-1)).toEqual({ role: 'assistant', content: 'answer 49' });
  });

  it('never keeps half an exchange, even when the cut falls inside a long one', () => {
    const store = new ConversationStore(1);
    // One short exchange, then one with 150 tool calls, then short ones: the bound cuts inside the long one.
    const later = Array.from({ length: 20 }, (_, i) => exchange(i + 2, 1)).flat();
    const messages = [...exchange(0, 1), ...exchange(1, 150), ...later];
    store.save('a', messages);
    const kept = store.get('a');

    expect(kept.length).toBeLessThanOrEqual(MAX_MESSAGES_PER_CONVERSATION);
    expect(kept[0]?.role).toBe('user');
    expect(orphanToolMessages(kept)).toEqual([]);
    expect(kept).toEqual(later);
  });
});
