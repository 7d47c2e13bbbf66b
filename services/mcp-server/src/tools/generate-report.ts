/**
 * @module tools/generate-report
 * `generate_report`: a deliberately slow tool that builds a report one section at a time, to
 * show progress notifications, cancellation and MCP Tasks. For a 2026-07-28 client that declares
 * `io.modelcontextprotocol/tasks` it runs as a task (`task: 'optional'`): the call answers at once
 * with a task id, each finished section is recorded (`step`), and a report whose server restarts
 * goes on from its last finished section. Other clients get the report as the answer, as before. The tool itself needs no scope (weather and cities
 * are public data), so topic "tasks" checks `tasks:read` itself and reports on the caller's own
 * tasks only: counts per day are still the user's data. Test: `generate-report.test.ts`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { callerHasScopes } from '@mcp-workshop/mcp-host/caller';
import { missingScopesMessage, type RunContext } from '@mcp-workshop/mcp-host/kit';
import { fail, ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import type { ToolDeps } from '../deps.js';
import { defineTool, TASKS_READ } from '../deps.js';
import { CITIES } from '../weather/cities.js';
import { dayWeather, localDateAndHour } from '../weather/offline.js';

/** 20 sections × 2 s is 40 s at most: long enough to watch progress, short enough that a forgotten call ends. */
export const MAX_STEPS = 20;
export const MAX_DELAY_MS = 2000;
const DEFAULT_STEPS = 5;
const DEFAULT_DELAY_MS = 300;
const DAY_MS = 86_400_000;

const TOPICS = ['tasks', 'weather', 'cities'] as const;
type Topic = (typeof TOPICS)[number];

const input = z.object({
  topic: z
    .enum(TOPICS)
    .describe(
      'What to report on: "tasks" (tasks added and completed per day, ending today, UTC), ' +
        '"weather" (today\'s offline-dataset weather in one city per section) or ' +
        '"cities" (the countries with the most cities in the offline dataset).',
    ),
  steps: z
    .number()
    .int()
    .min(1)
    .max(MAX_STEPS)
    .default(DEFAULT_STEPS)
    .describe(
      `How many sections to build, 1–${MAX_STEPS}: days for "tasks", cities for "weather", countries for "cities". Defaults to ${DEFAULT_STEPS}.`,
    ),
  delayMs: z
    .number()
    .int()
    .min(0)
    .max(MAX_DELAY_MS)
    .default(DEFAULT_DELAY_MS)
    .describe(
      `Simulated work per section in milliseconds, 0–${MAX_DELAY_MS}. Defaults to ${DEFAULT_DELAY_MS}; it only makes the report slower.`,
    ),
});

const sectionSchema = z.object({
  title: z.string().describe('What the section covers, e.g. "2026-07-28", "Oslo, Norway" or "India".'),
  text: z.string().describe('One line for people, e.g. "2026-07-28: 2 task(s) added, 1 completed."'),
  figures: z
    .record(z.string(), z.number())
    .describe('The numbers behind the line, by name, e.g. {"added": 2, "completed": 1}.'),
});

const output = z.object({
  topic: z.enum(TOPICS).describe('The topic that was reported on.'),
  sections: z.array(sectionSchema).describe('One section per step, in the order they were built.'),
  summary: z.string().describe('One line over the whole report.'),
  generatedAt: z.string().describe('When the report was finished, ISO 8601 in UTC.'),
});

type Section = z.infer<typeof sectionSchema>;

/** A report to build: each step computes one section, after its pause. */
interface Plan {
  steps: Array<() => Section>;
  summary: string;
}

export const generateReport = defineTool({
  name: 'generate_report',
  title: 'Generate report',
  description:
    'Build a short report, one section per step, about the task list, the offline weather or the offline city ' +
    'dataset. It is slow on purpose (delayMs per section): the client can follow progress and cancel it, ' +
    'and a client that supports MCP Tasks gets a task to poll instead of waiting. ' +
    'Returns the sections with their numbers and a one-line summary. For a single city or task, use ' +
    'get_weather or list_tasks instead.',
  input,
  output,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    // Same arguments, same report as long as the data has not changed; nothing is written.
    idempotentHint: true,
    // Only the task database and the built-in dataset, never the live weather service.
    openWorldHint: false,
  },
  task: 'optional',
  async run({ topic, steps, delayMs }, { deps, owner, authInfo, signal, log, progress, step }) {
    if (topic === 'tasks' && !callerHasScopes(authInfo, [TASKS_READ])) {
      return fail(missingScopesMessage('generate_report with topic "tasks"', [TASKS_READ]));
    }
    const plan = await PLANS[topic](deps, steps, owner, step);
    const total = plan.steps.length;
    await log('info', 'Generating a report', { topic, sections: total });
    const sections: Section[] = [];
    for (const [index, build] of plan.steps.entries()) {
      // As a task, a section finished before a restart is not built again.
      const section = await step(`section-${index + 1}`, async () => {
        // Stands in for slow work; rejects at once when the call (or task) is cancelled.
        await sleep(delayMs, undefined, { signal });
        return build();
      });
      sections.push(section);
      await progress(index + 1, total, `Section ${index + 1} of ${total}: ${section.title}`);
    }
    return ok(
      { topic, sections, summary: plan.summary, generatedAt: deps.now().toISOString() },
      { summary: plan.summary },
    );
  },
});

type Step = RunContext<ToolDeps>['step'];

const PLANS: Record<
  Topic,
  (deps: ToolDeps, steps: number, owner: string, step: Step) => Plan | Promise<Plan>
> = {
  tasks: tasksPlan,
  weather: weatherPlan,
  cities: citiesPlan,
};

/** One section per UTC day, oldest first, ending today, over `owner`'s tasks. Counts only: titles are the user's data. */
async function tasksPlan(deps: ToolDeps, steps: number, owner: string, step: Step): Promise<Plan> {
  // One read up front: the report is a snapshot, not a mix of before and after a concurrent write,
  // and as a task the same snapshot after a restart (recorded as a step).
  const tasks = await step('snapshot', () => deps.todos.list(owner, 'all'));
  const today = Date.parse(deps.now().toISOString().slice(0, 10));
  const days = Array.from({ length: steps }, (_, i) =>
    new Date(today - (steps - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const done = tasks.filter((task) => task.done).length;
  return {
    steps: days.map((day) => () => {
      const added = tasks.filter((task) => task.createdAt.startsWith(day)).length;
      const completed = tasks.filter((task) => task.completedAt?.startsWith(day)).length;
      return {
        title: day,
        text: `${day}: ${added} task(s) added, ${completed} completed.`,
        figures: { added, completed },
      };
    }),
    summary: `${tasks.length} task(s) on the list: ${tasks.length - done} open, ${done} done; ${steps} day(s) ending ${days.at(-1)} (UTC).`,
  };
}

/** Today's weather in the first `steps` dataset cities, from the offline dataset only. */
function weatherPlan(deps: ToolDeps, steps: number): Plan {
  const cities = CITIES.slice(0, steps);
  return {
    steps: cities.map((city) => () => {
      const { date } = localDateAndHour(deps.now(), city.timezone);
      const { minC, maxC, precipitationMm, conditions } = dayWeather(city, date);
      return {
        title: `${city.name}, ${city.country}`,
        text: `${city.name}, ${city.country} on ${date}: ${conditions.toLowerCase()}, ${minC} to ${maxC} °C, ${precipitationMm} mm.`,
        figures: { minC, maxC, precipitationMm },
      };
    }),
    summary: `Today's weather in ${cities.length} of the ${CITIES.length} offline-dataset cities (made-up but plausible numbers, not a forecast).`,
  };
}

/** The countries with the most dataset cities, most first, then by name. */
function citiesPlan(_deps: ToolDeps, steps: number): Plan {
  const byCountry = new Map<string, string[]>();
  for (const city of CITIES) byCountry.set(city.country, [...(byCountry.get(city.country) ?? []), city.name]);
  const ranked = [...byCountry].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b));
  const shown = ranked.slice(0, steps);
  return {
    steps: shown.map(([country, names]) => () => ({
      title: country,
      text: `${country}: ${names.length} city(ies): ${names.join(', ')}.`,
      figures: { cities: names.length },
    })),
    summary: `The offline dataset has ${CITIES.length} cities in ${byCountry.size} countries; the ${shown.length} with the most cities are listed.`,
  };
}
