/**
 * @module tools/music
 * Music: the player (play, pause, skip, volume), the library search and playlists.
 * `play_music` and `search_music` both take "a song"; `create_playlist` and `add_to_playlist`
 * both make a list; `set_volume` is the player's, not the home's.
 */
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool, READS, stableId, stableNumber, WRITES } from '../fixture-kit.js';

/** The player's controls change what plays, never any data: written, but safe to repeat. */
const CONTROLS = Object.freeze({ ...WRITES, idempotentHint: true });

const playMusic = defineTool({
  name: 'play_music',
  title: 'Play music',
  description:
    "Start playing a song, album, artist, playlist or genre on the user's speakers or phone now. " +
    'Returns what is playing.',
  input: z.object({
    query: z
      .string()
      .min(1)
      .max(200)
      .describe('What to play, e.g. "Bohemian Rhapsody", "Miles Davis" or "lo-fi".'),
    shuffle: z.boolean().optional().describe('Play in random order; default false.'),
  }),
  output: z.object({ playing: z.string(), device: z.string() }),
  annotations: CONTROLS,
  async run({ query }) {
    return ok({ playing: query, device: 'Living room speaker' });
  },
});

const pauseMusic = defineTool({
  name: 'pause_music',
  title: 'Pause music',
  description: 'Pause the music or podcast that is playing now; playing again resumes where it stopped.',
  input: z.object({}),
  output: z.object({ paused: z.boolean() }),
  annotations: CONTROLS,
  async run() {
    return ok({ paused: true });
  },
});

const skipTrack = defineTool({
  name: 'skip_track',
  title: 'Skip track',
  description: 'Skip to the next song in the queue, or go back to the previous one.',
  input: z.object({ direction: z.enum(['next', 'previous']).describe('Which way to skip.') }),
  output: z.object({ direction: z.string(), nowPlaying: z.string() }),
  annotations: CONTROLS,
  async run({ direction }) {
    return ok({ direction, nowPlaying: direction === 'next' ? 'Track 4' : 'Track 2' });
  },
});

const searchMusic = defineTool({
  name: 'search_music',
  title: 'Search music',
  description:
    'Look up songs, albums or artists in the music catalogue without playing them: who sang a song, ' +
    'which albums an artist made. Returns matches with ids.',
  input: z.object({
    query: z.string().min(1).max(200).describe('A title, artist or lyric line, e.g. "Hallelujah".'),
    kind: z.enum(['song', 'album', 'artist']).optional().describe('Only this kind of match; default all.'),
  }),
  output: z.object({
    results: z.array(z.object({ id: z.string(), title: z.string(), artist: z.string(), year: z.number() })),
  }),
  annotations: READS,
  async run({ query }) {
    return ok({
      results: [
        {
          id: stableId('song', query),
          title: query,
          artist: 'Various Artists',
          year: stableNumber(query, 1960, 2025),
        },
      ],
    });
  },
});

const createPlaylist = defineTool({
  name: 'create_playlist',
  title: 'Create a playlist',
  description:
    'Make a new, named playlist, empty or with a first few songs. To put songs in a playlist that exists, use ' +
    'add_to_playlist. Returns the playlist id.',
  input: z.object({
    name: z.string().min(1).max(100).describe('The playlist\'s name, e.g. "Road trip".'),
    songs: z
      .array(z.string().min(1).max(200))
      .max(100)
      .optional()
      .describe('Songs to start it with, by title.'),
  }),
  output: z.object({ id: z.string(), name: z.string(), songCount: z.number().int() }),
  annotations: WRITES,
  async run({ name, songs }) {
    return ok({ id: stableId('pl', name), name, songCount: songs?.length ?? 0 });
  },
});

const addToPlaylist = defineTool({
  name: 'add_to_playlist',
  title: 'Add to a playlist',
  description:
    "Add a song (or the one playing now) to one of the user's existing playlists, by playlist name.",
  input: z.object({
    playlist: z.string().min(1).max(100).describe('The name of the playlist, e.g. "Workout".'),
    song: z.string().max(200).optional().describe('The song to add, by title; default the one playing now.'),
  }),
  output: z.object({ playlist: z.string(), added: z.string() }),
  annotations: WRITES,
  async run({ playlist, song }) {
    return ok({ playlist, added: song ?? 'the song playing now' });
  },
});

const setVolume = defineTool({
  name: 'set_volume',
  title: 'Set the volume',
  description: 'Set how loud the music player plays, from 0 (silent) to 100, or turn it up or down a step.',
  input: z.object({
    level: z.number().int().min(0).max(100).optional().describe('The volume to set, 0–100.'),
    change: z
      .enum(['up', 'down'])
      .optional()
      .describe('Turn it up or down by 10 instead of setting a level.'),
  }),
  output: z.object({ level: z.number().int() }),
  annotations: CONTROLS,
  async run({ level, change }) {
    const current = 50;
    const next = level ?? (change === 'down' ? current - 10 : current + 10);
    return ok({ level: Math.max(0, Math.min(100, next)) });
  },
});

/** Music, in the order tools/list shows it. */
export const musicTools = [
  playMusic,
  pauseMusic,
  skipTrack,
  searchMusic,
  createPlaylist,
  addToPlaylist,
  setVolume,
];
