/**
 * @module tools/mail
 * Mail and messages: email (sent, searched, read, answered, archived), text messages, chat, and
 * the address book. `send_email`, `send_sms`, `send_chat_message` and `reply_to_email` all send
 * words to someone; only their descriptions say by which channel.
 */
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DESTROYS, defineTool, READS, stableId, stableNumber, WRITES } from '../fixture-kit.js';

const emailId = z
  .string()
  .min(1)
  .max(40)
  .describe('The email id, as search_email returns it, e.g. "msg_1a2b3c4d".');
const body = z.string().min(1).max(5_000).describe('The text of the message.');

const sendEmail = defineTool({
  name: 'send_email',
  title: 'Send an email',
  description:
    'Compose and send a new email to one or more addresses, with a subject and a body. ' +
    'To answer an email already received, use reply_to_email. Returns the id of the sent email.',
  input: z.object({
    to: z
      .array(z.string().min(3).max(200))
      .min(1)
      .max(20)
      .describe("Recipients' email addresses or contact names."),
    subject: z.string().min(1).max(200).describe('The subject line.'),
    body,
  }),
  output: z.object({ id: z.string(), to: z.array(z.string()), subject: z.string() }),
  annotations: DESTROYS,
  async run({ to, subject, body }) {
    return ok({ id: stableId('msg', to, subject, body), to, subject });
  },
});

const searchEmail = defineTool({
  name: 'search_email',
  title: 'Search email',
  description:
    "Search the user's mailbox by words, sender or date, newest first. Use it to find an email before reading, " +
    'answering or archiving it. Returns matching emails with id, sender, subject and date.',
  input: z.object({
    query: z.string().min(1).max(200).describe('Words to look for in the subject or body, e.g. "invoice".'),
    from: z.string().max(200).optional().describe('Only emails from this sender, by name or address.'),
  }),
  output: z.object({
    emails: z.array(z.object({ id: z.string(), from: z.string(), subject: z.string(), date: z.string() })),
  }),
  annotations: READS,
  async run({ query, from }) {
    const sender = from ?? 'billing@example.com';
    return ok({
      emails: [
        { id: stableId('msg', query, sender), from: sender, subject: `Re: ${query}`, date: '2026-06-01' },
      ],
    });
  },
});

const readEmail = defineTool({
  name: 'read_email',
  title: 'Read an email',
  description: 'Open one email by its id and return its full text, sender, recipients and attachments.',
  input: z.object({ emailId }),
  output: z.object({ id: z.string(), from: z.string(), subject: z.string(), body: z.string() }),
  annotations: READS,
  async run({ emailId }) {
    return ok({
      id: emailId,
      from: 'sam@example.com',
      subject: 'Friday',
      body: 'Are we still on for Friday?',
    });
  },
});

const replyToEmail = defineTool({
  name: 'reply_to_email',
  title: 'Reply to an email',
  description:
    'Send a reply to an email the user received, to its sender (or everyone on it), keeping the subject and thread. ' +
    'Returns the id of the reply.',
  input: z.object({
    emailId,
    body,
    replyAll: z
      .boolean()
      .optional()
      .describe('Reply to every recipient, not only the sender; default false.'),
  }),
  output: z.object({ id: z.string(), inReplyTo: z.string() }),
  annotations: DESTROYS,
  async run({ emailId, body }) {
    return ok({ id: stableId('msg', emailId, body), inReplyTo: emailId });
  },
});

const archiveEmail = defineTool({
  name: 'archive_email',
  title: 'Archive an email',
  description:
    'Move an email out of the inbox into the archive, where search still finds it. Returns its id.',
  input: z.object({ emailId }),
  output: z.object({ id: z.string(), archived: z.boolean() }),
  annotations: WRITES,
  async run({ emailId }) {
    return ok({ id: emailId, archived: true });
  },
});

const sendSms = defineTool({
  name: 'send_sms',
  title: 'Send a text message',
  description:
    "Send a short SMS text message to a phone number or a contact's mobile. Not for email or chat apps. " +
    'Returns the id of the sent message.',
  input: z.object({
    to: z
      .string()
      .min(1)
      .max(200)
      .describe('A phone number in international form, e.g. "+4791234567", or a contact name.'),
    text: z.string().min(1).max(480).describe('The message, at most 480 characters (three SMS).'),
  }),
  output: z.object({ id: z.string(), to: z.string(), segments: z.number().int() }),
  annotations: DESTROYS,
  async run({ to, text }) {
    return ok({ id: stableId('sms', to, text), to, segments: Math.ceil(text.length / 160) });
  },
});

const sendChatMessage = defineTool({
  name: 'send_chat_message',
  title: 'Post in team chat',
  description:
    'Post a message in a team chat channel (such as #general) or as a direct message to a colleague in the chat app. ' +
    'Returns the id of the post.',
  input: z.object({
    channel: z
      .string()
      .min(1)
      .max(100)
      .describe('A channel such as "#general", or "@name" for a direct message.'),
    text: z.string().min(1).max(4_000).describe('The message to post.'),
  }),
  output: z.object({ id: z.string(), channel: z.string() }),
  annotations: WRITES,
  async run({ channel, text }) {
    return ok({ id: stableId('chat', channel, text), channel });
  },
});

const findContact = defineTool({
  name: 'find_contact',
  title: 'Find a contact',
  description:
    "Look someone up in the user's address book by name, returning their email address, phone number and company.",
  input: z.object({
    name: z.string().min(1).max(200).describe('All or part of the person\'s name, e.g. "Ana".'),
  }),
  output: z.object({
    contacts: z.array(z.object({ name: z.string(), email: z.string(), phone: z.string() })),
  }),
  annotations: READS,
  async run({ name }) {
    const handle = name.trim().toLowerCase().replaceAll(/\s+/g, '.');
    const phone = `+47 ${stableNumber(name, 40_000_000, 99_999_999)}`;
    return ok({ contacts: [{ name, email: `${handle}@example.com`, phone }] });
  },
});

/** Mail and messages, in the order tools/list shows them. */
export const mailTools = [
  sendEmail,
  searchEmail,
  readEmail,
  replyToEmail,
  archiveEmail,
  sendSms,
  sendChatMessage,
  findContact,
];
