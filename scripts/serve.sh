#!/bin/sh
# `npm run serve` (and `npm start`, the browser tests and the benchmark): the bundled server in
# this process (exec, so its pid is the server's), with V8's heap sized for the database it uses.
#
# --max-old-space-size=192: the server's long-lived heap (MiB), within the 300 MB memory target.
# --max-semi-space-size (MiB), V8's young generation, where each request's short-lived objects go:
#   - on PostgreSQL (DATABASE_URL set), 32: at 50 connections on /api/users, 1,000,200 users,
#     16 (Node's default) answered 735-745 req/s, 32 answered 750-836 (p95 74-87 against 100-104 ms)
#     for about 25 MiB more; 64 gained nothing more; 8 and 4 lost 25 % and 35 %;
#   - on the embedded database, 8: PGlite answers one query at a time, so a larger young generation
#     buys nothing (264 against 266 req/s at 10 connections, 100,200 users) and costs memory:
#     RSS max 242-254 MiB against 307-315 MiB with 16 (docs/performance.md).
# Arguments replace the entry point (the benchmark's machine-ceiling server runs with these flags).
# DATABASE_URL may also come from the env file the server reads (ENV_FILE, else .env).
envfile="${ENV_FILE:-.env}"
if [ -n "$DATABASE_URL" ] || { [ -f "$envfile" ] && grep -Eq '^[[:space:]]*(export[[:space:]]+)?DATABASE_URL=.' "$envfile"; }; then
  semi=32
else
  semi=8
fi
if [ $# -eq 0 ]; then set -- dist/server/main.js; fi
exec node --max-old-space-size=192 --max-semi-space-size="$semi" "$@"
