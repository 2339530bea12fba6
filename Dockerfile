# Two stages (docs/operations.md "Build and start", "The image"):
# - build: every dependency, the sources, the compiled server in dist/ (scripts/build.mjs) and the
#   packed client. docker-compose's one-shot `deploy` runs scripts from this stage (tsx, solc
#   artifacts).
# - runtime: the production dependencies and dist/ only, as the unprivileged `node` user.
#   test/build/dockerfile.test.ts reads this recipe and the lockfile: it fails if this stage
#   would install a development dependency or copy more than the build.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# Dependencies first (their own layer); patch-package and the builds run once the sources are in.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npx patch-package && npm run build:client && npm run build

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# npm ci runs patch-package on patches/ (postinstall; docs/operations.md "Behind a
# transaction-mode pooler"); `prepare` finds no esbuild here and keeps the build it is given.
COPY patches ./patches
COPY scripts/start.mjs scripts/build.mjs scripts/prepare.mjs ./scripts/
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
CMD ["node", "--enable-source-maps", "scripts/start.mjs", "main"]
