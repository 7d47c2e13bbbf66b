# syntax=docker/dockerfile:1
# The four service images, from one build. docker-compose.yml names each service's target; by hand,
# from the repository root:
#   docker build --target mcp-server -t mcp-workshop/mcp-server .
#   docker build --target agent -t mcp-workshop/agent .
#   docker build --target demo-model -t mcp-workshop/demo-model .
#   docker build --target auth-server -t mcp-workshop/auth-server .
# The `build` stage installs and builds the four services and their workspace packages once, and
# `pnpm deploy`s each into out/<service>, a production-only install of that package alone; each
# target starts from a fresh Node image and copies its own folder. Docker builds the stage once for
# every target (and every compose service) it is asked for.
# `pnpm check:compose` replays the `build` stage's COPY and RUN lines without Docker, assembles each
# target from its COPY lines and starts the result, so keep those commands plain and their paths
# relative to WORKDIR.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-slim AS base
# The version pinned by package.json's packageManager (npm, not corepack: see .ci/run).
RUN npm install -g pnpm@10.34.9
WORKDIR /app

FROM base AS build
COPY . .
# "name...": the package and the workspace packages it depends on; the dev/ packages stay out.
RUN pnpm install --frozen-lockfile --filter "@mcp-workshop/mcp-server..." --filter "@mcp-workshop/agent..." \
    --filter "@mcp-workshop/demo-model..." --filter "@mcp-workshop/auth-server..."
RUN pnpm --filter "@mcp-workshop/mcp-server..." --filter "@mcp-workshop/agent..." \
    --filter "@mcp-workshop/demo-model..." --filter "@mcp-workshop/auth-server..." build
# --legacy: pnpm 10 deploys a workspace without inject-workspace-packages only this way.
RUN pnpm deploy --legacy --filter @mcp-workshop/mcp-server --prod out/mcp-server
RUN pnpm deploy --legacy --filter @mcp-workshop/agent --prod out/agent
RUN pnpm deploy --legacy --filter @mcp-workshop/demo-model --prod out/demo-model
RUN pnpm deploy --legacy --filter @mcp-workshop/auth-server --prod out/auth-server

# The agent's HTTP API and chat page. The image holds the agent only; it reaches the MCP server and
# the model over HTTP.
FROM node:${NODE_VERSION}-slim AS agent
ENV NODE_ENV=production \
    AGENT_HOST=0.0.0.0 \
    AGENT_PORT=3001
WORKDIR /app/services/agent
COPY --from=build /app/out/agent ./
USER node
# 3001: the API and the chat page. 3004: the sandbox proxy the page shows tools' MCP Apps views
# from (AGENT_VIEW_SANDBOX_PORT), a second origin by design (adr/017-mcp-apps-host.md); publish both.
EXPOSE 3001 3004
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.AGENT_PORT||3001)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/index.js"]

# The offline demo model (a scripted stand-in, not a language model).
FROM node:${NODE_VERSION}-slim AS demo-model
ENV NODE_ENV=production \
    DEMO_MODEL_HOST=0.0.0.0 \
    DEMO_MODEL_PORT=3002
WORKDIR /app/services/demo-model
COPY --from=build /app/out/demo-model ./
USER node
EXPOSE 3002
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.DEMO_MODEL_PORT||3002)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/index.js"]

# The workshop's development authorization server (never for production: it keeps everything in
# memory, and on this image's 0.0.0.0 it refuses to start until its secrets and passwords are your
# own, see services/auth-server/README.md): `docker compose --profile auth up`.
FROM node:${NODE_VERSION}-slim AS auth-server
ENV NODE_ENV=production \
    AUTH_HOST=0.0.0.0 \
    AUTH_PORT=3003
WORKDIR /app/services/auth-server
COPY --from=build /app/out/auth-server ./
USER node
EXPOSE 3003
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.AUTH_PORT||3003)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/index.js"]

# The MCP server; the last stage, so a `docker build .` without --target builds it.
FROM node:${NODE_VERSION}-slim AS mcp-server
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
# The same layout as the repository: dist/resources/adr.js reads ../../../../adr, i.e. /app/adr, and
# dist/skills/catalogue.js reads ../../skills, which `pnpm deploy` copies with the package.
WORKDIR /app/services/mcp-server
COPY --from=build /app/out/mcp-server ./
COPY --from=build /app/adr /app/adr
# The task database; a named volume mounted here starts out owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/index.js"]
