#!/bin/sh
# `npm run serve` (and `npm start`, the browser tests and the benchmark): the bundled server in
# this process (exec, so its pid is the server's), with V8's heap and glibc's allocator sized for
# the database it uses (docs/performance.md "Close to the machine's ceiling", "Memory").
#
# --max-old-space-size (MiB), the long-lived heap: 160 on PostgreSQL; 128 with the embedded
#   database, whose WebAssembly memory is in the same process (under 10 minutes of mixed traffic
#   on 100,200 users the heap held 66 MiB after each full collection, 93 at most before one).
# --max-semi-space-size (MiB), V8's young generation, where each request's short-lived objects go:
#   - on PostgreSQL (DATABASE_URL set), 32: at 50 connections on /api/users, 1,000,200 users,
#     16 (Node's default) answered 735-745 req/s, 32 answered 750-836 (p95 74-87 against 100-104 ms)
#     for about 25 MiB more; 64 gained nothing more; 8 and 4 lost 25 % and 35 %;
#   - on the embedded database, 2: PGlite answers one query at a time, so a larger young generation
#     buys nothing (254-264 req/s at 10 connections with 4 or 8, 266 with 16) and costs memory.
# --heap-growing-percent=10, embedded database only: after each full collection V8 lets the old
#   generation grow by 10 % of what survived before the next one, instead of 30-40 % (the heap went
#   from 66 MiB live to 93 between collections). With the young generation of 2 MiB, 10 minutes of
#   mixed traffic peaked at 249 MiB RSS against 259 within 3 minutes without either, and answered
#   as many requests (10,303 against 10,379 in the first 3 minutes, on one host).
# MALLOC_ARENA_MAX=2: glibc gave each allocating thread (libuv's pool, V8's compiler and collector)
#   an arena of its own, keeping what it freed (19 MiB in 9 arenas under mixed traffic, 1-6 now).
# MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ (bytes): blocks above 128 KiB (large answers'
#   and exports' buffers) are mapped and given back whole when freed, and a free top of the heap
#   above 128 KiB is given back; setting them also stops glibc raising the first as it goes.
# Arguments replace the entry point (the benchmark's machine-ceiling server runs with these flags).
# DATABASE_URL may also come from the env file the server reads (ENV_FILE, else .env).
envfile="${ENV_FILE:-.env}"
if [ -n "$DATABASE_URL" ] || { [ -f "$envfile" ] && grep -Eq '^[[:space:]]*(export[[:space:]]+)?DATABASE_URL=.' "$envfile"; }; then
  old=160
  semi=32
  grow=""
else
  old=128
  semi=2
  grow="--heap-growing-percent=10"
fi
if [ $# -eq 0 ]; then set -- dist/server/main.js; fi
exec env MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072 \
  node --max-old-space-size="$old" --max-semi-space-size="$semi" $grow "$@"
