/**
 * @module tools/home
 * The smart home: heating, lights, door locks, the robot vacuum and the alarm system.
 * `turn_on_lights` / `turn_off_lights` and `lock_door` / `unlock_door` differ by one word;
 * `get_indoor_temperature` sits next to the weather domain's outdoor forecast.
 */
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DESTROYS, defineTool, READS, stableNumber, WRITES } from '../fixture-kit.js';

/** Switching a device to a state is safe to repeat: the second call changes nothing. */
const SWITCHES = Object.freeze({ ...WRITES, idempotentHint: true });

const ROOMS = ['living_room', 'kitchen', 'bedroom', 'bathroom', 'hallway', 'office', 'garden'] as const;
const room = z.enum(ROOMS).describe('Which room of the home.');
const DOORS = ['front', 'back', 'garage'] as const;
const door = z.enum(DOORS).describe('Which door: front, back or garage.');

const setThermostat = defineTool({
  name: 'set_thermostat',
  title: 'Set the heating',
  description:
    "Set the target temperature of the home's heating or air conditioning, for one room or the whole home.",
  input: z.object({
    celsius: z.number().min(5).max(30).describe('The temperature to keep, °C, e.g. 21.'),
    room: room.optional().describe('Only this room; default the whole home.'),
  }),
  output: z.object({ targetC: z.number(), room: z.string() }),
  annotations: SWITCHES,
  async run({ celsius, room }) {
    return ok({ targetC: celsius, room: room ?? 'whole home' });
  },
});

const getIndoorTemperature = defineTool({
  name: 'get_indoor_temperature',
  title: 'Indoor temperature',
  description:
    'Read the temperature and humidity inside the home, from the sensor of a room. For the weather outside, use get_weather_forecast.',
  input: z.object({ room }),
  output: z.object({ room: z.string(), temperatureC: z.number(), humidityPercent: z.number() }),
  annotations: READS,
  async run({ room }) {
    return ok({
      room,
      temperatureC: stableNumber(room, 180, 240) / 10,
      humidityPercent: stableNumber(room, 30, 60),
    });
  },
});

const turnOnLights = defineTool({
  name: 'turn_on_lights',
  title: 'Turn lights on',
  description: 'Switch on the lights in a room, optionally dimmed to a brightness.',
  input: z.object({
    room,
    brightness: z.number().int().min(1).max(100).optional().describe('How bright, 1–100 %; default 100.'),
  }),
  output: z.object({ room: z.string(), on: z.boolean(), brightness: z.number().int() }),
  annotations: SWITCHES,
  async run({ room, brightness }) {
    return ok({ room, on: true, brightness: brightness ?? 100 });
  },
});

const turnOffLights = defineTool({
  name: 'turn_off_lights',
  title: 'Turn lights off',
  description: 'Switch off the lights in one room, or in every room at once.',
  input: z.object({ room: z.enum([...ROOMS, 'everywhere']).describe('Which room, or "everywhere".') }),
  output: z.object({ room: z.string(), on: z.boolean() }),
  annotations: SWITCHES,
  async run({ room }) {
    return ok({ room, on: false });
  },
});

const lockDoor = defineTool({
  name: 'lock_door',
  title: 'Lock a door',
  description: "Lock one of the home's smart door locks, and tell whether it is now locked.",
  input: z.object({ door }),
  output: z.object({ door: z.string(), locked: z.boolean() }),
  annotations: SWITCHES,
  async run({ door }) {
    return ok({ door, locked: true });
  },
});

const unlockDoor = defineTool({
  name: 'unlock_door',
  title: 'Unlock a door',
  description:
    "Unlock one of the home's smart door locks, for example to let a visitor in; it locks again after the given minutes.",
  input: z.object({
    door,
    relockAfterMinutes: z
      .number()
      .int()
      .min(1)
      .max(120)
      .optional()
      .describe('Lock again after this long; default 5.'),
  }),
  output: z.object({ door: z.string(), locked: z.boolean(), relocksInMinutes: z.number().int() }),
  annotations: DESTROYS,
  async run({ door, relockAfterMinutes }) {
    return ok({ door, locked: false, relocksInMinutes: relockAfterMinutes ?? 5 });
  },
});

const startVacuum = defineTool({
  name: 'start_vacuum',
  title: 'Start the robot vacuum',
  description:
    'Send the robot vacuum cleaner to clean the whole home or chosen rooms now. Returns how long it expects to take.',
  input: z.object({
    rooms: z.array(room).max(ROOMS.length).optional().describe('Only these rooms; default everywhere.'),
  }),
  output: z.object({ cleaning: z.array(z.string()), minutes: z.number().int() }),
  annotations: WRITES,
  async run({ rooms }) {
    const cleaning = rooms && rooms.length > 0 ? rooms : ['everywhere'];
    return ok({ cleaning, minutes: 15 * (rooms?.length || ROOMS.length) });
  },
});

const armSecuritySystem = defineTool({
  name: 'arm_security_system',
  title: 'Arm or disarm the alarm',
  description: "Arm the home's burglar alarm when leaving (away) or for the night (home), or disarm it.",
  input: z.object({
    mode: z.enum(['away', 'home', 'disarmed']).describe('away, home (night), or disarmed.'),
  }),
  output: z.object({ mode: z.string() }),
  annotations: SWITCHES,
  async run({ mode }) {
    return ok({ mode });
  },
});

/** The smart home, in the order tools/list shows it. */
export const homeTools = [
  setThermostat,
  getIndoorTemperature,
  turnOnLights,
  turnOffLights,
  lockDoor,
  unlockDoor,
  startVacuum,
  armSecuritySystem,
];
