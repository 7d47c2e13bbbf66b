/**
 * @module tools/travel
 * Travel: flights (searched, booked, tracked), hotels, and getting around on the ground
 * (directions, a taxi, a hire car). `search_flights` and `get_flight_status` both concern "my
 * flight"; `get_directions`, `book_taxi` and `rent_car` all get someone from A to B.
 */
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DESTROYS, defineTool, READS, stableId, stableNumber } from '../fixture-kit.js';

const place = (what: string) =>
  z.string().min(2).max(200).describe(`${what}: a city, airport code or address.`);
const date = (what: string) => z.string().min(10).max(10).describe(`${what}, ISO date, e.g. "2026-07-14".`);

const searchFlights = defineTool({
  name: 'search_flights',
  title: 'Search flights',
  description:
    'Find flights between two cities or airports on a date, with prices and times, cheapest first. ' +
    'Searching books nothing. Returns the offers, each with an id for book_flight.',
  input: z.object({
    from: place('Where to fly from'),
    to: place('Where to fly to'),
    date: date('The day of departure'),
    passengers: z.number().int().min(1).max(9).optional().describe('How many people travel; default 1.'),
  }),
  output: z.object({
    offers: z.array(
      z.object({ id: z.string(), flight: z.string(), departs: z.string(), priceEur: z.number() }),
    ),
  }),
  annotations: READS,
  async run({ from, to, date }) {
    const offers = [0, 1].map((index) => ({
      id: stableId('offer', from, to, date, index),
      flight: `FX${stableNumber(`${from}${to}${index}`, 100, 999)}`,
      departs: `${date}T${String(7 + 5 * index).padStart(2, '0')}:15`,
      priceEur: stableNumber(`${from}${to}${date}${index}`, 59, 420),
    }));
    return ok({ offers });
  },
});

const bookFlight = defineTool({
  name: 'book_flight',
  title: 'Book a flight',
  description:
    'Book and pay for a flight offer found with search_flights, for the named passengers. Returns the booking reference.',
  input: z.object({
    offerId: z.string().min(1).max(40).describe('The offer id from search_flights, e.g. "offer_1a2b3c4d".'),
    passengers: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(9)
      .describe('Full names of the passengers, as on their passports.'),
  }),
  output: z.object({ reference: z.string(), offerId: z.string() }),
  annotations: DESTROYS,
  async run({ offerId, passengers }) {
    return ok({ reference: stableId('PNR', offerId, passengers).toUpperCase(), offerId });
  },
});

const getFlightStatus = defineTool({
  name: 'get_flight_status',
  title: 'Flight status',
  description:
    'Tell whether a flight (by flight number) is on time, delayed or cancelled today, with its gate and times.',
  input: z.object({
    flightNumber: z.string().min(3).max(10).describe('The airline code and number, e.g. "SK4035".'),
  }),
  output: z.object({
    flightNumber: z.string(),
    status: z.string(),
    gate: z.string(),
    delayMinutes: z.number(),
  }),
  annotations: READS,
  async run({ flightNumber }) {
    const delayMinutes = stableNumber(flightNumber, 0, 3) * 15;
    return ok({
      flightNumber,
      status: delayMinutes === 0 ? 'on time' : 'delayed',
      gate: `B${stableNumber(flightNumber, 1, 40)}`,
      delayMinutes,
    });
  },
});

const searchHotels = defineTool({
  name: 'search_hotels',
  title: 'Search hotels',
  description:
    'Find hotels with free rooms in a city for given nights, with price per night and rating. ' +
    'Searching books nothing. Returns the offers, each with an id for book_hotel.',
  input: z.object({
    city: z.string().min(2).max(200).describe('The city or area to stay in, e.g. "Lisbon".'),
    checkIn: date('The night of arrival'),
    checkOut: date('The day of departure'),
    guests: z.number().int().min(1).max(10).optional().describe('How many guests; default 1.'),
  }),
  output: z.object({
    hotels: z.array(
      z.object({ id: z.string(), name: z.string(), pricePerNightEur: z.number(), rating: z.number() }),
    ),
  }),
  annotations: READS,
  async run({ city, checkIn }) {
    return ok({
      hotels: ['Central', 'Harbour View'].map((name, index) => ({
        id: stableId('hotel', city, checkIn, index),
        name: `${name} ${city}`,
        pricePerNightEur: stableNumber(`${city}${name}`, 70, 260),
        rating: stableNumber(`${name}${city}`, 30, 49) / 10,
      })),
    });
  },
});

const bookHotel = defineTool({
  name: 'book_hotel',
  title: 'Book a hotel',
  description: 'Book a room in a hotel found with search_hotels. Returns the confirmation number.',
  input: z.object({
    hotelId: z
      .string()
      .min(1)
      .max(40)
      .describe('The hotel offer id from search_hotels, e.g. "hotel_1a2b3c4d".'),
    guestName: z.string().min(1).max(200).describe('The name the room is booked under.'),
  }),
  output: z.object({ confirmation: z.string(), hotelId: z.string() }),
  annotations: DESTROYS,
  async run({ hotelId, guestName }) {
    return ok({ confirmation: stableId('HTL', hotelId, guestName).toUpperCase(), hotelId });
  },
});

const getDirections = defineTool({
  name: 'get_directions',
  title: 'Get directions',
  description:
    'Work out a route between two places by car, public transport, bike or on foot, with the travel time ' +
    'and the steps. Books nothing.',
  input: z.object({
    from: place('Where to start'),
    to: place('Where to go'),
    mode: z.enum(['driving', 'transit', 'cycling', 'walking']).describe('How to travel.'),
  }),
  output: z.object({ minutes: z.number().int(), distanceKm: z.number(), steps: z.array(z.string()) }),
  annotations: READS,
  async run({ from, to, mode }) {
    const distanceKm = stableNumber(`${from}>${to}`, 1, 40);
    const speed = { driving: 40, transit: 25, cycling: 15, walking: 5 }[mode];
    return ok({
      minutes: Math.ceil((distanceKm / speed) * 60),
      distanceKm,
      steps: [`Leave ${from}`, `Follow the signs to ${to}`, `Arrive at ${to}`],
    });
  },
});

const bookTaxi = defineTool({
  name: 'book_taxi',
  title: 'Book a taxi',
  description:
    'Order a taxi to pick the user up at an address now or at a set time and drive them to a destination. ' +
    'Returns the booking with the pickup time and the fare estimate.',
  input: z.object({
    pickup: place('Where to be picked up'),
    destination: place('Where to go'),
    at: z
      .string()
      .max(40)
      .optional()
      .describe('Pickup time, ISO 8601 local, e.g. "2026-06-03T07:30"; default now.'),
  }),
  output: z.object({ id: z.string(), pickupAt: z.string(), fareEur: z.number() }),
  annotations: DESTROYS,
  async run({ pickup, destination, at }) {
    return ok({
      id: stableId('taxi', pickup, destination, at),
      pickupAt: at ?? 'in 8 minutes',
      fareEur: stableNumber(`${pickup}${destination}`, 12, 85),
    });
  },
});

const rentCar = defineTool({
  name: 'rent_car',
  title: 'Rent a car',
  description:
    'Reserve a hire car to collect at a city or airport on one date and return on another, which the user drives themselves. ' +
    'Returns the reservation with the daily price.',
  input: z.object({
    location: place('Where to collect the car'),
    from: date('The day of collection'),
    to: date('The day of return'),
    size: z.enum(['small', 'medium', 'large', 'van']).optional().describe('The size of car; default medium.'),
  }),
  output: z.object({ id: z.string(), location: z.string(), pricePerDayEur: z.number() }),
  annotations: DESTROYS,
  async run({ location, from, to, size }) {
    return ok({
      id: stableId('car', location, from, to, size),
      location,
      pricePerDayEur: stableNumber(`${location}${size ?? 'medium'}`, 29, 120),
    });
  },
});

/** Travel, in the order tools/list shows it. */
export const travelTools = [
  searchFlights,
  bookFlight,
  getFlightStatus,
  searchHotels,
  bookHotel,
  getDirections,
  bookTaxi,
  rentCar,
];
