/**
 * @module tools
 * The one list of the fixture's tools, domain by domain. `catalogue.test.ts` checks there are 60.
 */
import { calendarTools } from './calendar.js';
import { fileTools } from './files.js';
import { financeTools } from './finance.js';
import { homeTools } from './home.js';
import { mailTools } from './mail.js';
import { musicTools } from './music.js';
import { travelTools } from './travel.js';
import { weatherTimeTools } from './weather-time.js';

export const fixtureTools = [
  ...calendarTools,
  ...mailTools,
  ...fileTools,
  ...travelTools,
  ...financeTools,
  ...musicTools,
  ...homeTools,
  ...weatherTimeTools,
];
