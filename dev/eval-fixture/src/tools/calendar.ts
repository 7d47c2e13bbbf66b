/**
 * @module tools/calendar
 * Calendar tools: events (listed, created, moved, cancelled, shared), free time, and reminders.
 * `create_event` and `create_reminder` sit close on purpose: both put something at a time, and
 * only the description tells a meeting with people from a nudge to oneself.
 */
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DESTROYS, defineTool, READS, stableId, stableNumber, WRITES } from '../fixture-kit.js';

const dateTime = (what: string) =>
  z.string().min(10).max(40).describe(`${what}, ISO 8601 local date and time, e.g. "2026-06-03T14:00".`);
const date = (what: string) => z.string().min(10).max(10).describe(`${what}, ISO date, e.g. "2026-06-03".`);
const eventId = z
  .string()
  .min(1)
  .max(40)
  .describe('The event id, as list_events returns it, e.g. "evt_1a2b3c4d".');

const listEvents = defineTool({
  name: 'list_events',
  title: 'List calendar events',
  description:
    "List the events in the user's calendar between two dates: meetings, appointments, birthdays. " +
    'Use it to answer "what is on my calendar" or "am I busy on Friday". Returns each event with its id, title and times.',
  input: z.object({ from: date('First day to list'), to: date('Last day to list, inclusive') }),
  output: z.object({
    events: z.array(z.object({ id: z.string(), title: z.string(), start: z.string(), end: z.string() })),
  }),
  annotations: READS,
  async run({ from, to }) {
    const count = stableNumber(`${from}/${to}`, 1, 3);
    const events = Array.from({ length: count }, (_, index) => ({
      id: stableId('evt', from, index),
      title: ['Team stand-up', 'Dentist', 'Lunch with Sam'][index] ?? 'Busy',
      start: `${from}T${String(9 + 2 * index).padStart(2, '0')}:00`,
      end: `${from}T${String(10 + 2 * index).padStart(2, '0')}:00`,
    }));
    return ok({ events });
  },
});

const createEvent = defineTool({
  name: 'create_event',
  title: 'Create a calendar event',
  description:
    'Add an event to the calendar: a meeting, appointment or other block of time with a start and an end, ' +
    'optionally at a place. For a note-to-self alert with no duration, use create_reminder. Returns the new event id.',
  input: z.object({
    title: z.string().min(1).max(200).describe('What the event is, e.g. "Dentist" or "Project kickoff".'),
    start: dateTime('When it starts'),
    end: dateTime('When it ends'),
    location: z.string().max(200).optional().describe('Where it takes place, e.g. "Room 4B" or an address.'),
  }),
  output: z.object({ id: z.string(), title: z.string(), start: z.string(), end: z.string() }),
  annotations: WRITES,
  async run({ title, start, end }) {
    return ok({ id: stableId('evt', title, start), title, start, end });
  },
});

const rescheduleEvent = defineTool({
  name: 'reschedule_event',
  title: 'Move a calendar event',
  description:
    'Move an existing calendar event to a new start and end time, keeping its title, place and attendees. ' +
    'Returns the event with its new times.',
  input: z.object({ eventId, start: dateTime('The new start'), end: dateTime('The new end') }),
  output: z.object({ id: z.string(), start: z.string(), end: z.string() }),
  annotations: WRITES,
  async run({ eventId, start, end }) {
    return ok({ id: eventId, start, end });
  },
});

const cancelEvent = defineTool({
  name: 'cancel_event',
  title: 'Cancel a calendar event',
  description:
    'Cancel and remove an event from the calendar, telling its attendees. It cannot be undone. ' +
    'Returns the id of the cancelled event.',
  input: z.object({
    eventId,
    notifyAttendees: z.boolean().describe('Whether to send the attendees a cancellation notice.'),
  }),
  output: z.object({ id: z.string(), cancelled: z.boolean(), notified: z.boolean() }),
  annotations: DESTROYS,
  async run({ eventId, notifyAttendees }) {
    return ok({ id: eventId, cancelled: true, notified: notifyAttendees });
  },
});

const findFreeTime = defineTool({
  name: 'find_free_time',
  title: 'Find free time',
  description:
    'Find open slots in the calendar on a given day that fit a meeting of a given length, optionally ' +
    'for several people at once. Use it before create_event when no time is fixed yet. Returns the free slots.',
  input: z.object({
    day: date('The day to search'),
    durationMinutes: z.number().int().min(5).max(480).describe('How long the slot must be, in minutes.'),
    attendees: z
      .array(z.string().min(1).max(200))
      .max(20)
      .optional()
      .describe('Other people who must be free too, by name or email.'),
  }),
  output: z.object({ slots: z.array(z.object({ start: z.string(), end: z.string() })) }),
  annotations: READS,
  async run({ day, durationMinutes }) {
    const firstHour = stableNumber(day, 9, 13);
    const slots = [firstHour, firstHour + 3].map((hour) => ({
      start: `${day}T${String(hour).padStart(2, '0')}:00`,
      end: `${day}T${String(hour).padStart(2, '0')}:${String(Math.min(durationMinutes, 59)).padStart(2, '0')}`,
    }));
    return ok({ slots });
  },
});

const inviteAttendees = defineTool({
  name: 'invite_attendees',
  title: 'Invite people to an event',
  description:
    'Invite people to an existing calendar event; each gets an invitation they can accept or decline. ' +
    'Returns who was invited.',
  input: z.object({
    eventId,
    attendees: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(50)
      .describe('Who to invite, by name or email, e.g. ["Ana", "li@example.com"].'),
  }),
  output: z.object({ id: z.string(), invited: z.array(z.string()) }),
  annotations: WRITES,
  async run({ eventId, attendees }) {
    return ok({ id: eventId, invited: attendees });
  },
});

const createReminder = defineTool({
  name: 'create_reminder',
  title: 'Create a reminder',
  description:
    'Set a reminder that notifies the user at a given time to do something ("remind me to call mum at 6"). ' +
    'A reminder has no duration and no attendees; for a meeting use create_event. Returns the reminder id.',
  input: z.object({
    text: z.string().min(1).max(200).describe('What to be reminded of, e.g. "Call mum".'),
    at: dateTime('When to remind'),
  }),
  output: z.object({ id: z.string(), text: z.string(), at: z.string() }),
  annotations: WRITES,
  async run({ text, at }) {
    return ok({ id: stableId('rem', text, at), text, at });
  },
});

const listReminders = defineTool({
  name: 'list_reminders',
  title: 'List reminders',
  description:
    "List the user's upcoming reminders, soonest first, optionally only those still open. Returns each reminder's text and time.",
  input: z.object({
    includeDone: z.boolean().optional().describe('Also list reminders already done; default false.'),
  }),
  output: z.object({ reminders: z.array(z.object({ id: z.string(), text: z.string(), at: z.string() })) }),
  annotations: READS,
  async run({ includeDone }) {
    const reminders = [{ id: 'rem_00000001', text: 'Water the plants', at: '2026-06-03T18:00' }];
    if (includeDone) reminders.push({ id: 'rem_00000002', text: 'Renew passport', at: '2026-05-20T09:00' });
    return ok({ reminders });
  },
});

/** The calendar domain, in the order tools/list shows it. */
export const calendarTools = [
  listEvents,
  createEvent,
  rescheduleEvent,
  cancelEvent,
  findFreeTime,
  inviteAttendees,
  createReminder,
  listReminders,
];
