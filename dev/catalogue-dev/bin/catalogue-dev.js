#!/usr/bin/env node
// The command `pnpm dev` runs for the MCP server. A file of its own rather than dist/cli.js, so pnpm
// can link the command at install time, before the first build has made dist/.
import '../dist/cli.js';
