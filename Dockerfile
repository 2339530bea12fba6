FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# npm ci runs patch-package on patches/ (docs/operations.md "Behind a transaction-mode pooler").
COPY patches ./patches
# npm ci's prepare builds and packs @oabp/client, served at /client.tgz (docs/client-install.md).
COPY packages/client ./packages/client
RUN npm ci --no-audit --no-fund
COPY tsconfig.json drizzle.config.ts ./
COPY src ./src
COPY drizzle ./drizzle
COPY openapi ./openapi
COPY specs ./specs
COPY scripts ./scripts
COPY contracts/artifacts ./contracts/artifacts
COPY docs ./docs
EXPOSE 3000
USER node
CMD ["node", "--import", "tsx", "src/main.ts"]
