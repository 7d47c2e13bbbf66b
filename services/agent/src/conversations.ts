/**
 * @module conversations
 * Conversation state per conversation id, bounded twice: the number of conversations kept
 * (least recently used goes first) and the messages in each (oldest exchanges go first).
 */
import type { ChatMessage } from './llm/provider.js';

/** A long chat is trimmed to this many messages so every request to the model stays bounded. */
export const MAX_MESSAGES_PER_CONVERSATION = 200;

export class ConversationStore {
  readonly #conversations = new Map<string, ChatMessage[]>();
  readonly #maxConversations: number;

  constructor(maxConversations: number) {
    this.#maxConversations = maxConversations;
  }

  get size(): number {
    return this.#conversations.size;
  }

  /** The messages so far (without the system prompt), marking the conversation as most recently used. */
  get(id: string): ChatMessage[] {
    const messages = this.#conversations.get(id) ?? [];
    this.#put(id, messages);
    return messages;
  }

  /** Stores the messages, dropping whole exchanges from the front when over the bound. */
  save(id: string, messages: ChatMessage[]): void {
    let kept = messages;
    while (kept.length > MAX_MESSAGES_PER_CONVERSATION) {
      // Cut at the next user message, so no tool result is left without the call that asked for it.
      const nextUser = kept.findIndex((message, index) => index > 0 && message.role === 'user');
      kept = nextUser === -1 ? [] : kept.slice(nextUser);
    }
    // Evicted while its turn ran (other conversations came and went)? Then it comes back as the newest.
    this.#put(id, kept);
  }

  delete(id: string): boolean {
    return this.#conversations.delete(id);
  }

  /** Stores as the most recently used, then drops the least recently used beyond the bound. */
  #put(id: string, messages: ChatMessage[]): void {
    this.#conversations.delete(id);
    this.#conversations.set(id, messages);
    while (this.#conversations.size > this.#maxConversations) {
      const oldest = this.#conversations.keys().next().value;
      if (oldest === undefined) break;
      this.#conversations.delete(oldest);
    }
  }
}
