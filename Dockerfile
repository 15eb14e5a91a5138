# syntax=docker/dockerfile:1
# Workspace API: build with dev dependencies, run with production ones only.
# test/container.e2e-spec.ts performs these steps (minus Docker) and checks
# the result answers /health/ready; keep its commands in step with the RUN
# lines below.

ARG NODE_IMAGE=node:22-bookworm-slim

# 1. Compile the service's TypeScript (dev dependencies; no native module is
#    needed). The development servers (dev-servers/) are not part of the
#    image: .dockerignore leaves them out and build:service does not compile
#    them.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build:service

# 2. Production dependencies only, with better-sqlite3 compiled for this image.
#    --omit=optional as well: TypeORM names ts-node as an optional peer, so
#    npm marks ts-node and TypeScript "devOptional" and --omit=dev alone still
#    installs them (about 25 MB). The only other optional package of the
#    production tree is pg-cloudflare, which pg loads on Cloudflare Workers
#    only.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts && npm rebuild better-sqlite3

# 3. Runtime: the build and production dependencies, as the unprivileged
#    "node" user (uid 1000), no compiler, no npm cache.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=production-dependencies --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
# The default SQLite file lives here; PostgreSQL deployments never write it.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The README's start command (npm start), without npm in between so that
# SIGTERM reaches Node directly.
CMD ["node", "dist/src/main.js"]
