#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium; install it when it is missing.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then exit 0; fi
if ! command -v apt-get >/dev/null; then
  echo "Chromium is missing at $chromium and apt-get is not available; set CHROMIUM_PATH." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
