#!/usr/bin/env bash
# End-to-end test of the robots.txt tester page (robotstxt serve) in headless
# Chromium: Debian's chromium package, driven by playwright-core from npm
# (no browser download). Installs what is missing, builds robotstxt, runs
# tester.test.mjs against it on 127.0.0.1.
#
#   OUT=dir               where the screenshots go (default: e2e/out)
#   UPDATE_SCREENSHOT=1   also copy out/tester.png to docs/tester.png
#   BIG_FILE=path         the large robots.txt the page is timed on
#                         (default: the largest file of testdata/realworld)
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../../../../.. && pwd)"
export OUT="${OUT:-$PWD/out}"
export BIG_FILE="${BIG_FILE:-$root/testdata/realworld/avuim__www.expert.de.txt}"

if [ ! -x /usr/bin/chromium ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
/usr/bin/chromium --version 2>/dev/null || true

npm ci --no-audit --no-fund --loglevel=error

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/robotstxt" ./cmd/robotstxt)

ROBOTSTXT="$tmp/robotstxt" node --test --test-reporter=spec tester.test.mjs signals.test.mjs

if [ "${UPDATE_SCREENSHOT:-}" = 1 ]; then
  mkdir -p "$root/docs"
  cp "$OUT/tester.png" "$root/docs/tester.png"
  echo "updated docs/tester.png"
fi
