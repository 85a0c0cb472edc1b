#!/usr/bin/env bash
# What the tests run besides Node, from Debian's packages, installed when missing: Chromium for the
# end-to-end tests, SpamAssassin to score the site's mail, a JRE for the Nu HTML Checker, and
# Postfix and Dovecot (IMAP and LMTP) for the mail that comes back (each test starts its own, on loopback),
# and libheif's heif-enc to make the HEIC photos (as an iPhone takes them) that the photo tests upload.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
need=()
[ -x "$chromium" ] || need+=(chromium)
command -v spamassassin >/dev/null || need+=(spamassassin)
command -v java >/dev/null || need+=(default-jre-headless)
[ -x /usr/sbin/postfix ] || need+=(postfix)
[ -x /usr/lib/dovecot/imap ] || need+=(dovecot-imapd)
[ -x /usr/lib/dovecot/lmtp ] || need+=(dovecot-lmtpd)
command -v openssl >/dev/null || need+=(openssl)
command -v heif-enc >/dev/null || need+=(libheif-examples)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if ! command -v apt-get >/dev/null; then
  echo "Missing ${need[*]}, and apt-get is not available to install them (set CHROMIUM_PATH for another Chromium)." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
