# The farm site as one container: one Node process serving pages, the API and the live
# relay, with the SQLite file on the /data volume. See README "Deploy" and
# docs/decisions/003-one-process-and-sqlite.md.
#
#   docker build -t farm-site .
#   docker run -d --name farm -p 3000:3000 -v farm-data:/data farm-site
#
# BASE is any image with Node 20 under /usr/local (headers in /usr/local/include/node),
# apt and a `node` user: the official image by default; the container smoke test passes
# a stand-in it builds without a registry.
ARG BASE=node:20-bookworm-slim

# Every dependency, with better-sqlite3 compiled against this image's own Node.
FROM ${BASE} AS deps
LABEL org.opencontainers.image.title="farm-site"
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
  npm_config_update_notifier=false \
  npm_config_fund=false \
  npm_config_audit=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci

# The Remix server build and browser bundle, and the server, its workers and the backup
# and restore scripts compiled to plain JavaScript (build/server.js, build/offline-worker.js, ...).
FROM deps AS build
COPY . .
RUN npm run build

# Production dependencies only. Of better-sqlite3 only the compiled addon is kept, not
# the SQLite sources and object files it was built from (about 25 MB).
FROM deps AS prod-deps
RUN npm prune --omit=dev \
  && cd node_modules/better-sqlite3 \
  && mv build/Release/better_sqlite3.node /tmp/ \
  && rm -rf build deps src \
  && mkdir -p build/Release \
  && mv /tmp/better_sqlite3.node build/Release/

FROM ${BASE} AS runtime
LABEL org.opencontainers.image.title="farm-site"
# glibc gives each thread that allocates an arena of its own; two are enough for one Node process
# (the log's writes, the message reader) and keep about 8 MB of memory that the others would hold.
ENV NODE_ENV=production \
  MALLOC_ARENA_MAX=2 \
  PORT=3000 \
  HOST=0.0.0.0 \
  DATABASE_PATH=/data/farm.db
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
# package.json for `npm run backup` and `npm run restore`; drizzle/ holds the migrations applied
# at start. Backups go to /data/backups, on the volume beside the database (BACKUP_DIR).
COPY package.json ./
COPY drizzle ./drizzle
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server stops on SIGTERM: it closes the sockets, finishes open requests and
# checkpoints the database, then exits 0 (within 10 s).
STOPSIGNAL SIGTERM
# The heap is capped so the whole process fits a 512 MB container: V8 collects before the
# limit instead of growing toward the machine's memory (the site holds about 135–250 MB). The
# young generation is 4 MB, as `npm start` runs it (decision 051).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=4", "build/server.js"]
