# syntax=docker/dockerfile:1
# The production image: built in stages, run by Node 24 LTS as an unprivileged user with only
# the production dependencies, the build output and the migrations. See README, "Deploying".
ARG NODE_IMAGE=node:24-bookworm-slim

# Every dependency, to build.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund

# The server bundle, the client assets with their brotli/gzip copies and the PGlite template.
FROM deps AS build
COPY . .
RUN npm run build

# Production dependencies only.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# SENTRY=1: error reporting with the official SDK (SENTRY_DSN), about 95 MB, so only on request
# (decision 049); the version is the one package-lock.json pins for the tests.
ARG SENTRY=0
RUN npm ci --omit=dev --no-audit --no-fund && \
    if [ "$SENTRY" = 1 ]; then \
      npm install --no-save --omit=dev --no-audit --no-fund \
        "@sentry/node@$(node -p "require('./package-lock.json').packages['node_modules/@sentry/node'].version")"; \
    fi && \
    npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
COPY drizzle ./drizzle
# The code is root's and read-only to the server; only the data folder (the embedded database
# when DATABASE_URL is unset) is the server's to write.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# /readyz: migrations applied and the database reachable (503 while starting or stopping).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same command as `npm start`: a heap limit of 1 GB makes V8 collect as it goes (with the
# default limit, sized from the machine's memory, a 1M-row CSV export grew the process by
# ~100-200 MB of garbage before the first full collection; decision 029).
CMD ["node", "--max-old-space-size=1024", "build/server/index.js"]
