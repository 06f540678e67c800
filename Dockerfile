# FDP's production image: the self-host build (docs/self-hosting.md).
#
# Build stage: the repository's install from its lockfile (`npm ci`; CI runs `npm install` and fails
# when it would change the lockfile, so both install the same versions) and its build, `npm run build`.
# `npm run build` ends in scripts/build-standalone.ts, which leaves in .next/standalone a directory that
# runs with `node server.mjs` and production packages only (no tsx, TypeScript or dev tooling).
# Run stage: that directory and Node.js, nothing else.
#
# No container engine runs on FDP's CI machines. CI proves this file's run stage another way:
# tests/integration/standalone-build.test.ts copies .next/standalone out of the repository, as COPY
# below does, and starts it with this CMD and compose.yaml's environment on Postgres and Redis.

ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm-slim AS build
# /app in both stages: Next.js records the build's directory in .next/required-server-files.json.
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# The lockfile first, so the install layer is reused while only the source changes. The postinstall
# script patches the postgres driver (scripts/patch-postgres-driver.mjs); the build copies the patched files.
COPY package.json package-lock.json ./
COPY scripts/patch-postgres-driver.mjs scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000
COPY --from=build --chown=node:node /app/.next/standalone ./
# The app writes beside its files: the embedded database and session secret under .data/ when
# DATABASE_URL is unset, Next.js's cache under .next/cache.
RUN chown node:node /app
USER node
EXPOSE 3000
# /api/health answers 200 once the database is migrated and reachable (503 while it is not).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# exec form: node is PID 1 and gets the SIGTERM that starts the graceful shutdown (docs/connections.md).
CMD ["node", "server.mjs"]
