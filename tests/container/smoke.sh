#!/usr/bin/env bash
# Container smoke test: builds the project's Dockerfile with podman and proves the image
# serves, keeps its data on a volume, stops cleanly on SIGTERM and runs as a non-root user.
#
#   npm run test:container        (as root, on Debian; ends with `N passed, N failed`)
#
# It needs no container registry. The base image is a stand-in for node:20-bookworm-slim,
# built once and cached by name: a minimal Debian from debootstrap (using the mirror apt is
# configured with), this machine's Node and npm copied under /usr/local like the official
# image, a `node` user, and this machine's CA certificates. Podman, runc and debootstrap are
# installed from Debian's packages when missing. Traffic goes only to 127.0.0.1.
#
# Settings: FARM_BASE_IMAGE (default localhost/farm-base:node20), FARM_SMOKE_NO_CACHE=1
# (build the project's image without the layer cache), FARM_SMOKE_REBUILD_BASE=1.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The whole run is bounded: past the limit everything in it gets SIGTERM and the cleanup runs.
if [ -z "${FARM_SMOKE_BOUNDED:-}" ]; then
  FARM_SMOKE_BOUNDED=1 exec timeout --kill-after=60 "${FARM_SMOKE_TIMEOUT:-1500}" bash "$0" "$@"
fi

export DEBIAN_FRONTEND=noninteractive
SUITE=bookworm
BASE_IMAGE=${FARM_BASE_IMAGE:-localhost/farm-base:node20}
IMAGE=localhost/farm-site:smoke
NAME=farm-smoke-$$
VOLUME=farm-smoke-$$
WORK=$(mktemp -d /var/tmp/farm-smoke.XXXXXX)

passed=0
failed=0
pass() {
  passed=$((passed + 1))
  echo "ok - $*"
}
miss() {
  failed=$((failed + 1))
  echo "not ok - $*"
}
step() { echo "▶ $*"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
seconds() { printf '%d.%01d s' $(($1 / 1000)) $(($1 % 1000 / 100)); }

finish() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  if [ -n "${PODMAN_READY:-}" ]; then
    podman rm -f -t 0 "$NAME" >/dev/null 2>&1
    podman volume rm -f "$VOLUME" >/dev/null 2>&1
    if [ -n "${README_RUN:-}" ]; then
      podman rm -f -t 0 farm >/dev/null 2>&1
      podman volume rm -f farm-data >/dev/null 2>&1
      podman untag localhost/farm-site:latest >/dev/null 2>&1
      [ -n "${README_PREVIOUS_IMAGE:-}" ] && podman tag "$README_PREVIOUS_IMAGE" farm-site >/dev/null 2>&1
    fi
  fi
  [ -n "${ROOTFS:-}" ] && rm -rf "$ROOTFS"
  rm -rf "$WORK"
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then miss "the smoke test stopped early (exit $status)"; fi
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
  exit $?
}
trap finish EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# ---------------------------------------------------------------- tools
step "tools"
if [ "$(id -u)" != 0 ]; then
  miss "the container smoke test installs packages and runs podman as root; run it as root"
  exit 1
fi
missing=()
for tool in podman:podman runc:runc debootstrap:debootstrap curl:curl openssl:openssl; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages"
  timeout 300 apt-get update -qq
  timeout 600 apt-get install -y -qq --no-install-recommends "${missing[@]}" containernetworking-plugins iptables \
    >"$WORK/apt.log" 2>&1 || {
    tail -n 20 "$WORK/apt.log"
    miss "could not install ${missing[*]}"
    exit 1
  }
fi

# Podman's defaults are refused on this kind of machine (systemd cgroups, journald events,
# crun, the host's ulimits): runc, cgroupfs, a file events log and explicit ulimits instead.
cat >"$WORK/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
# Images persist in the usual place, so the base image and the layer cache survive runs.
cat >"$WORK/storage.conf" <<'EOF'
[storage]
driver = "overlay"
runroot = "/run/containers/storage"
graphroot = "/var/lib/containers/storage"
EOF
export CONTAINERS_CONF="$WORK/containers.conf" CONTAINERS_STORAGE_CONF="$WORK/storage.conf"
podman info --format '{{.Host.OCIRuntime.Name}} {{.Host.CgroupManager}} {{.Host.EventLogger}}' >"$WORK/info" 2>&1 || {
  cat "$WORK/info"
  miss "podman does not start with runc and cgroupfs"
  exit 1
}
PODMAN_READY=1
pass "podman $(podman version --format '{{.Client.Version}}') with $(cat "$WORK/info")"

# ---------------------------------------------------------------- base image
# The first Debian mirror apt uses for $SUITE: deb822 .sources first, then one-line lists.
apt_mirror() {
  local file
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk -v suite="$SUITE" '
      BEGIN { RS = ""; FS = "\n" }
      {
        uri = ""; deb = 0; hit = 0; off = 0
        for (i = 1; i <= NF; i++) {
          line = $i
          if (line ~ /^Types:/ && line ~ /[ \t]deb([ \t]|$)/) deb = 1
          if (line ~ /^Enabled:[ \t]*no/) off = 1
          if (line ~ /^URIs:/) { split(line, u, /[ \t]+/); uri = u[2] }
          if (line ~ /^Suites:/) { n = split(line, s, /[ \t]+/); for (j = 2; j <= n; j++) if (s[j] == suite) hit = 1 }
        }
        if (deb && hit && !off && uri != "") { print uri; exit }
      }' "$file"
  done
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk -v suite="$SUITE" '
    $1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } if ($(i + 1) == suite) { print $i; exit } }'
}

# The folder that holds Node's headers (node_version.h) for this Node.
node_headers() {
  local prefix dir
  prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
  for dir in "$prefix/include/node" /usr/include/node /usr/local/include/node; do
    if [ -f "$dir/node_version.h" ] && [ -f "$dir/common.gypi" ]; then
      echo "$dir"
      return
    fi
  done
}

build_base() {
  local mirror headers npm_dir corepack_dir
  mirror=$(apt_mirror | head -n 1)
  mirror=${mirror:-http://deb.debian.org/debian}
  headers=$(node_headers)
  [ -n "$headers" ] || {
    echo "Node's headers (node_version.h) were not found beside $(command -v node)"
    return 1
  }
  npm_dir="$(npm root -g)/npm"
  corepack_dir="$(npm root -g)/corepack"
  ROOTFS=$(mktemp -d /var/tmp/farm-base.XXXXXX)
  echo "debootstrap $SUITE from $mirror"
  timeout 900 debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$ROOTFS" "$mirror" \
    >"$WORK/debootstrap.log" 2>&1 || {
    tail -n 20 "$WORK/debootstrap.log"
    return 1
  }
  # Node, npm and the headers where the official image keeps them.
  mkdir -p "$ROOTFS/usr/local/bin" "$ROOTFS/usr/local/lib/node_modules" "$ROOTFS/usr/local/include" \
    "$ROOTFS/usr/local/etc"
  cp "$(readlink -f "$(command -v node)")" "$ROOTFS/usr/local/bin/node"
  cp -a "$npm_dir" "$ROOTFS/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
  if [ -d "$corepack_dir" ]; then
    cp -a "$corepack_dir" "$ROOTFS/usr/local/lib/node_modules/corepack"
    ln -s ../lib/node_modules/corepack/dist/corepack.js "$ROOTFS/usr/local/bin/corepack"
  fi
  cp -a "$headers" "$ROOTFS/usr/local/include/node"
  # Trust what this machine trusts, in the system store and for npm.
  cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/" 2>/dev/null || true
  chroot "$ROOTFS" update-ca-certificates >"$WORK/ca.log" 2>&1
  echo 'cafile=/etc/ssl/certs/ca-certificates.crt' >"$ROOTFS/usr/local/etc/npmrc"
  chroot "$ROOTFS" groupadd --gid 1000 node
  chroot "$ROOTFS" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$ROOTFS" /usr/local/bin/node --version >/dev/null
  # Slim, like the official image: no package lists, caches, manuals or translations.
  rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/man/* \
    "$ROOTFS"/usr/share/info/* "$ROOTFS"/var/log/*.log
  find "$ROOTFS/usr/share/doc" -type f ! -name copyright -delete
  find "$ROOTFS/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  tar -C "$ROOTFS" -c . | timeout 300 podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=${NODE_VERSION}" \
    --change 'CMD ["node"]' \
    - "$BASE_IMAGE" >"$WORK/import.log" 2>&1 || {
    cat "$WORK/import.log"
    return 1
  }
  rm -rf "$ROOTFS"
  ROOTFS=
}

step "base image $BASE_IMAGE"
NODE_VERSION=$(node -p 'process.versions.node')
cached_node=""
if podman image exists "$BASE_IMAGE"; then
  cached_node=$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$BASE_IMAGE" |
    sed -n 's/^NODE_VERSION=//p')
fi
if [ -n "$cached_node" ] && [ "$cached_node" = "$NODE_VERSION" ] && [ -z "${FARM_SMOKE_REBUILD_BASE:-}" ]; then
  pass "base image $BASE_IMAGE (Node $NODE_VERSION) is cached"
else
  started=$(now_ms)
  if build_base; then
    pass "base image $BASE_IMAGE (Debian $SUITE, Node $NODE_VERSION) built in $(seconds $(($(now_ms) - started)))"
  else
    miss "could not build the base image $BASE_IMAGE"
    exit 1
  fi
fi

# ---------------------------------------------------------------- the project's image
step "podman build"
build_args=(--format docker --build-arg "BASE=$BASE_IMAGE" -t "$IMAGE")
[ -n "${FARM_SMOKE_NO_CACHE:-}" ] && build_args+=(--no-cache)
started=$(now_ms)
if timeout 1200 podman build "${build_args[@]}" . >"$WORK/build.log" 2>&1; then
  build_ms=$(($(now_ms) - started))
  size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
  pass "the image builds in $(seconds "$build_ms"); size $((size / 1000000)) MB ($size bytes)"
  # Keep the dependency stage by name, so the next run reuses its npm ci, and drop this
  # project's untagged leftovers of earlier builds, so repeated runs do not fill the disk.
  podman build --format docker --build-arg "BASE=$BASE_IMAGE" --target deps -t "$IMAGE-deps" . \
    >>"$WORK/build.log" 2>&1
  podman image prune -f --filter label=org.opencontainers.image.title=farm-site >/dev/null
else
  tail -n 40 "$WORK/build.log"
  miss "podman build failed"
  exit 1
fi

user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
healthcheck=$(podman image inspect --format '{{json .HealthCheck}}' "$IMAGE")
volumes=$(podman image inspect --format '{{json .Config.Volumes}}' "$IMAGE")
ports=$(podman image inspect --format '{{json .Config.ExposedPorts}}' "$IMAGE")
if [ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] && [[ "$healthcheck" == *healthz* ]] &&
  [[ "$volumes" == *'"/data"'* ]] && [[ "$ports" == *'"3000/tcp"'* ]]; then
  pass "the image runs as user '$user', declares /data, exposes 3000 and has a HEALTHCHECK on /healthz"
else
  miss "image config: user '$user', volumes $volumes, ports $ports, healthcheck $healthcheck"
fi

# ---------------------------------------------------------------- run
HOST_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
URL="http://127.0.0.1:$HOST_PORT"

wait_healthy() {
  local deadline=$(($(now_ms) + ${1:-60000}))
  while [ "$(now_ms)" -lt "$deadline" ]; do
    if [[ "$(curl -s -m 2 "$URL/healthz" 2>/dev/null)" == '{"status":"ok",'* ]]; then return 0; fi
    if [ "$(podman inspect --format '{{.State.Running}}' "$NAME" 2>/dev/null)" = false ]; then return 1; fi
    sleep 0.1
  done
  return 1
}

# Podman runs the HEALTHCHECK on a systemd timer, and there is no systemd here: it says so on
# every run, start and stop (kept in podman.log, shown on failure), and the check is run by hand.
run_args=(-d --name "$NAME" -p "127.0.0.1:$HOST_PORT:8080" -v "$VOLUME:/data")
PODMAN_LOG="$WORK/podman.log"

step "podman run"
started=$(now_ms)
podman run "${run_args[@]}" -e PORT=8080 -e HOST=0.0.0.0 -e FARM_NAME='Smoke Test Acres' \
  -e FARM_PRODUCT='Heirloom Squash' -e LOG_LEVEL=info "$IMAGE" >/dev/null 2>>"$PODMAN_LOG"
if wait_healthy 60000; then
  healthy_ms=$(($(now_ms) - started))
  pass "healthy on $URL/healthz $(seconds "$healthy_ms") after podman run"
else
  tail -n 5 "$PODMAN_LOG"
  podman logs "$NAME" 2>&1 | tail -n 20
  miss "not healthy within 60 s of podman run"
  exit 1
fi

if podman healthcheck run "$NAME" >/dev/null 2>&1; then
  pass "the image's HEALTHCHECK (node itself, no extra package) reports healthy"
else
  miss "the image's HEALTHCHECK does not pass"
fi

page=$(curl -s -m 10 "$URL/")
if [[ "$page" == *'Smoke Test Acres'* ]] && [[ "$page" == *'Heirloom Squash'* ]]; then
  pass "settings pass through: PORT=8080, FARM_NAME and FARM_PRODUCT reach the page"
else
  miss "FARM_NAME or FARM_PRODUCT did not reach the page"
fi

response=$(curl -s -m 10 -o "$WORK/post.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d '{"name":"Smoke Test","email":"smoke@example.com","message":"Keep this across restarts."}' \
  "$URL/api/submissions")
if [ "$response" = 201 ] && grep -q '"name":"Smoke Test"' "$WORK/post.json"; then
  pass "POST /api/submissions answers 201"
else
  miss "POST /api/submissions answered $response: $(cat "$WORK/post.json")"
fi

# Claiming the site as its pages say: a browser on the host is not the site's machine, so the inbox
# names the command, with this container's ID; run in the container, it prints a one-time link.
container_id=$(podman inspect --format '{{.Config.Hostname}}' "$NAME")
inbox=$(curl -s -m 10 "$URL/farm-sales")
if [[ "$inbox" == *'the site is not claimed yet'*"docker exec $container_id npm run claim"* ]]; then
  pass "the unclaimed inbox says how to claim it: docker exec $container_id npm run claim"
else
  miss "the unclaimed inbox does not name 'docker exec $container_id npm run claim'"
fi
claim=$(podman exec "$NAME" npm run --silent claim 2>&1)
link=$(grep -o 'http://localhost:8080/set-up/[A-Za-z0-9_-]\{43\}' <<<"$claim" || true)
claimed=$(curl -s -m 10 -o /dev/null -c "$WORK/cookies" -w '%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' \
  --data 'name=Smoke+Owner&email=owner%40smoke.example&password=hens+under+the+pear+tree' "${link/http:\/\/localhost:8080/$URL}")
if [ -n "$link" ] && [ "$claimed" = 302 ] && [ "$(curl -s -m 10 -o /dev/null -w '%{http_code}' "$URL/api/submissions")" = 401 ]; then
  pass "npm run claim in the container prints a link that claims the site; the inbox is closed to strangers"
else
  miss "claiming with npm run claim: printed '$claim', the link answered $claimed"
fi

server_uid=$(podman exec "$NAME" cat /proc/1/status | awk '/^Uid:/ { print $2 }')
file_uid=$(podman exec "$NAME" stat -c %u /data/farm.db)
if [ -n "$server_uid" ] && [ "$server_uid" != 0 ] && [ "$file_uid" = "$server_uid" ]; then
  pass "the server runs as uid $server_uid and /data/farm.db on the volume belongs to it"
else
  miss "the server runs as uid '$server_uid' and /data/farm.db belongs to uid '$file_uid'"
fi

if backup=$(podman exec "$NAME" npm run --silent backup 2>&1) &&
  [[ "$backup" == *'to /data/backups/farm-'*'.db: 1 submissions'*'integrity ok'* ]]; then
  pass "npm run backup in the running container writes to the volume: $backup"
else
  miss "npm run backup in the container: $backup"
fi

# ---------------------------------------------------------------- stop and start
stop_and_check() {
  local started code took
  started=$(now_ms)
  timeout 60 podman stop -t 10 "$NAME" >/dev/null 2>>"$PODMAN_LOG"
  took=$(($(now_ms) - started))
  code=$(podman inspect --format '{{.State.ExitCode}}' "$NAME")
  if [ "$code" = 0 ] && [ "$took" -lt 10000 ]; then
    pass "$1: podman stop (SIGTERM) exits 0 in $(seconds "$took")"
  else
    tail -n 5 "$PODMAN_LOG"
    podman logs "$NAME" 2>&1 | tail -n 10
    miss "$1: podman stop gave exit code $code after $(seconds "$took")"
  fi
}

has_submission() {
  curl -s -m 10 -b "$WORK/cookies" "$URL/api/submissions" | grep -q '"message":"Keep this across restarts."'
}

step "stop, start again"
stop_and_check "first run"
podman start "$NAME" >/dev/null 2>>"$PODMAN_LOG"
if wait_healthy 60000 && has_submission; then
  pass "after podman start the submission is still there"
else
  miss "after podman start the submission is gone or the server is not healthy"
fi
stop_and_check "second run"

# An upgrade: a new container on the same volume, with other settings.
step "a new container on the same volume"
podman rm "$NAME" >/dev/null 2>>"$PODMAN_LOG"
podman run "${run_args[@]}" -e PORT=8080 -e FARM_NAME='Upgraded Acres' -e LOG_LEVEL=warn \
  -e DATABASE_PATH=/data/farm.db "$IMAGE" >/dev/null 2>>"$PODMAN_LOG"
if wait_healthy 60000 && has_submission && [[ "$(curl -s -m 10 "$URL/")" == *'Upgraded Acres'* ]]; then
  pass "a new container on the same volume finds the submission and the new FARM_NAME"
else
  miss "a new container on the same volume did not find the submission or the new FARM_NAME"
fi
if ! podman logs "$NAME" 2>&1 | grep -q '"level":30'; then
  pass "LOG_LEVEL=warn passes through: no info lines logged"
else
  miss "LOG_LEVEL=warn did not pass through: info lines were logged"
fi
stop_and_check "new container"

# ---------------------------------------------------------------- the README's line
# The README's `docker run` line exactly as written (podman in docker's place, the image tagged
# as the README's `docker build -t farm-site` names it), browsed by a LAN name as its HTTPS
# section promises: the page, the owner's sign-in over plain HTTP, and the inbox.
step "the README's docker run line, at http://farm.lan:3000"
readme_line=$(grep -m1 '^docker run -d --name farm .* -p 3000:3000 ' README.md || true)
if [ -z "$readme_line" ]; then
  miss "the README has no 'docker run -d --name farm … -p 3000:3000' line to run"
elif podman container exists farm || podman volume exists farm-data; then
  miss "a container 'farm' or a volume 'farm-data' is already here; the README's line cannot run as written"
elif ! node -e 'const s=require("net").createServer().once("error",()=>process.exit(1)).listen(3000,()=>s.close())'; then
  miss "port 3000 is taken here; the README's line cannot run as written"
else
  # The README's name for the image; one built by hand before keeps it once this step is done.
  README_PREVIOUS_IMAGE=$(podman image inspect --format '{{.Id}}' farm-site 2>/dev/null || true)
  README_RUN=1
  podman tag "$IMAGE" farm-site
  docker() { podman "$@"; }
  eval "$readme_line" >/dev/null 2>>"$PODMAN_LOG" || miss "the README's docker run line did not start (podman.log)"
  lan=(--resolve farm.lan:3000:127.0.0.1)
  deadline=$(($(now_ms) + 60000))
  until [[ "$(curl -s -m 2 "${lan[@]}" http://farm.lan:3000/healthz 2>/dev/null)" == '{"status":"ok",'* ]] ||
    [ "$(now_ms)" -gt "$deadline" ]; do sleep 0.1; done
  page=$(curl -s -m 10 "${lan[@]}" -w '%{http_code}' http://farm.lan:3000/)
  signed_in=$(curl -s -m 10 "${lan[@]}" -o /dev/null -c "$WORK/cookies" -w '%{http_code}' \
    -H 'Origin: http://farm.lan:3000' --data 'password=choose-a-long-one&redirectTo=/farm-sales' \
    http://farm.lan:3000/sign-in)
  inbox=$(curl -s -m 10 "${lan[@]}" -b "$WORK/cookies" -o "$WORK/inbox.html" -w '%{http_code}' \
    http://farm.lan:3000/farm-sales)
  if [[ "$page" == *'Willow Creek Farm'*200 ]] && [ "$signed_in" = 302 ] && [ "$inbox" = 200 ] &&
    grep -q 'Farm Sales' "$WORK/inbox.html"; then
    pass "the README's docker run line serves http://farm.lan:3000: the page, the owner's sign-in and the inbox"
  else
    podman logs farm 2>&1 | tail -n 10
    miss "the README's docker run line at http://farm.lan:3000: page ${page: -3}, sign-in $signed_in, inbox $inbox"
  fi
fi

echo "image $IMAGE: $((size / 1000000)) MB, built in $(seconds "$build_ms"), healthy $(seconds "$healthy_ms") after podman run"
