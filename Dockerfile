# resend-emulator as a CI service:
#   docker build -t resend-emulator .
#   docker run -p 4400:4400 -p 2587:2587 resend-emulator   (2587: the SMTP relay)
# State lives in /data/emulator.db (mount a volume to keep it). Every flag is
# also an env var (`-e EMULATOR_CLOCK=manual`, `-e EMULATOR_DB=:memory:`,
# `-e EMULATOR_PUBLIC_URL=http://resend:4400`), so the defaults below are ENV,
# not CMD flags (a flag would win over the env var).
# HTTPS as api.resend.com for clients that hard-code the URL: -e EMULATOR_TLS=1
# (port 4443, or -e EMULATOR_HTTPS_PORT=443 behind a network alias
# api.resend.com); the local CA is kept in /data/resend-emulator-tls/ca.pem
# (`docker exec CONTAINER node bin/emulator.js ca --pem` prints it). README
# "Code that calls api.resend.com directly".

# --- build: compile better-sqlite3 and TypeScript, then drop dev dependencies
FROM node:22-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts \
 && npm rebuild better-sqlite3
COPY tsconfig.json ./
COPY src ./src
COPY bin ./bin
COPY spec ./spec
COPY fixtures ./fixtures
COPY scripts ./scripts
COPY web ./web
RUN npm run build \
 && npm prune --omit=dev

# --- runtime: only what `emulator start` needs, as a non-root user
FROM node:22-slim
ENV NODE_ENV=production \
    EMULATOR_HOST=0.0.0.0 \
    EMULATOR_PORT=4400 \
    EMULATOR_SMTP_PORT=2587 \
    EMULATOR_DB=/data/emulator.db
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/spec ./spec
COPY --from=build --chown=node:node /app/fixtures ./fixtures
COPY --from=build --chown=node:node /app/web ./web
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4400 2587 4443
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.EMULATOR_PORT || 4400) + '/_emulator/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/emulator.js", "start"]
