#!/usr/bin/env bash
# Builds the two match runners the tests play real games in, cutechess-cli 1.5.1 and
# fastchess 74deac23, from sources pinned by commit and checksum, and installs them into
# DEST_DIR (scripts/test.sh uses ~/.cache/sp960-peers/bin, where the tests look for them).
#
#   usage: scripts/build-runners.sh [--source DIR | --git] [--check-sources] DEST_DIR
#          scripts/build-runners.sh --packages   (the Debian packages a build needs, one a line)
#
# The sources, first found wins:
#   --source DIR (or SP960_RUNNER_SOURCES=DIR)  a directory holding the two tarballs below
#   ../shared/peers beside this repository        the same tarballs, when that exists
#   --git, or neither of the above                 `git clone` of the upstream repositories
#                                                  (SP960_FASTCHESS_GIT, SP960_CUTECHESS_GIT
#                                                  override their URLs, e.g. for a mirror)
#
# Pinning: a tarball must have its sha256 below, and the tar inside it (gunzip -c) the tar
# sha256 below. A git checkout must have the pinned commit, and `git archive --format=tar
# --prefix=NAME/ COMMIT` of it must give that same tar sha256, which is how the tarballs
# were made: the same bytes whichever way the sources come.
#
# --check-sources fetches and checks the sources of both, then stops (no build, nothing
# installed, DEST_DIR not looked at).
#
# Does nothing when DEST_DIR already holds both runners at these versions (a cached
# DEST_DIR skips the build; if a cached cutechess-cli only lacks its Qt libraries, they
# are installed and nothing is rebuilt). Otherwise installs the missing Debian build
# packages (apt-get update first; root or sudo) and builds with -j$(nproc): about 2 min
# wall and 4 min CPU on 2 cores.
set -euo pipefail

FASTCHESS_COMMIT=74deac23aadc6718fa0f8e24ac95d16392d79444
FASTCHESS_SHORT=74deac23
FASTCHESS_DATE=20260729
FASTCHESS_NAME=fastchess-${FASTCHESS_SHORT}
FASTCHESS_TARBALL_SHA256=4acb50294f94dcec255d26105214690c1fe13b91dfc25476b5b27c45ec3938d7
FASTCHESS_TAR_SHA256=4919bf06c6685249a48483b87ef486062fb14eefda0b15ae8a18c5c9e2b15ae0
FASTCHESS_GIT=${SP960_FASTCHESS_GIT:-https://github.com/Disservin/fastchess.git}
FASTCHESS_VERSION="fastchess alpha 1.8.2 ${FASTCHESS_DATE}-${FASTCHESS_SHORT}"

CUTECHESS_TAG=v1.5.1
CUTECHESS_COMMIT=45e923949e43570886c0ad3392f514e743839c6b
CUTECHESS_NAME=cutechess-${CUTECHESS_TAG}
CUTECHESS_TARBALL_SHA256=40cc316560a8656d118dab14dff93c984078239ba92544be191bc71f87084a5a
CUTECHESS_TAR_SHA256=74f066393f9312b6c8657f49d5ca13327195ccc600da4eb45008b1876de9c4ea
CUTECHESS_GIT=${SP960_CUTECHESS_GIT:-https://github.com/cutechess/cutechess.git}
CUTECHESS_VERSION="cutechess-cli 1.5.1"

# Debian 12 (bookworm) packages.
BUILD_PACKAGES=(g++ make cmake qt6-base-dev qt6-5compat-dev qt6-svg-dev)
GIT_PACKAGES=(git ca-certificates)
RUNTIME_PACKAGES=(libqt6core6 libqt6core5compat6)

log() { printf 'build-runners.sh: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}
usage() {
	echo "usage: $0 [--source DIR | --git] [--check-sources] DEST_DIR" >&2
	exit 2
}

if [ "${1:-}" = --packages ]; then
	printf '%s\n' "${BUILD_PACKAGES[@]}" "${RUNTIME_PACKAGES[@]}"
	exit 0
fi

source_dir=${SP960_RUNNER_SOURCES:-}
use_git=false
check_only=false
while [ $# -gt 1 ]; do
	case $1 in
	--source)
		source_dir=$2
		shift 2
		;;
	--git)
		use_git=true
		shift
		;;
	--check-sources)
		check_only=true
		shift
		;;
	*) usage ;;
	esac
done
[ $# -eq 1 ] && [ "${1#-}" = "$1" ] || usage

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$1"
dest=$(cd "$1" && pwd)
jobs=$(nproc 2>/dev/null || echo 1)

if [ "$(id -u)" -eq 0 ]; then
	SUDO=()
elif command -v sudo >/dev/null 2>&1; then
	SUDO=(sudo)
else
	SUDO=()
fi

first_line() { "$@" 2>/dev/null | head -n 1 || true; }
fastchess_ok() {
	[ -x "$dest/fastchess" ] && [ "$(first_line "$dest/fastchess" --version)" = "$FASTCHESS_VERSION" ]
}
cutechess_ok() {
	[ -x "$dest/cutechess-cli" ] && [ "$(first_line "$dest/cutechess-cli" --version)" = "$CUTECHESS_VERSION" ]
}

missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || printf '%s\n' "$p"
	done
}
apt_install() {
	local missing
	missing=$(missing_packages "$@" | tr '\n' ' ')
	[ -n "${missing// /}" ] || return 0
	command -v apt-get >/dev/null 2>&1 || die "missing Debian packages and no apt-get: $missing"
	if [ "$(id -u)" -ne 0 ] && [ ${#SUDO[@]} -eq 0 ]; then
		die "needs the Debian packages $missing: run as root, install sudo, or install them first"
	fi
	log "installing: $missing"
	export DEBIAN_FRONTEND=noninteractive
	"${SUDO[@]}" apt-get update -q >&2
	# shellcheck disable=SC2086
	"${SUDO[@]}" apt-get install -y -q --no-install-recommends $missing >&2
}

sha256() { sha256sum | cut -d ' ' -f 1; }

# A cached cutechess-cli may only lack its shared Qt libraries.
if ! $check_only && [ -x "$dest/cutechess-cli" ] && ! cutechess_ok && command -v dpkg-query >/dev/null 2>&1; then
	apt_install "${RUNTIME_PACKAGES[@]}"
fi
if ! $check_only && fastchess_ok && cutechess_ok; then
	log "up to date in $dest: $FASTCHESS_VERSION; $CUTECHESS_VERSION"
	exit 0
fi

if ! $use_git && [ -z "$source_dir" ] && [ -d "$repo/../shared/peers" ]; then
	source_dir=$repo/../shared/peers
fi
if ! $use_git && [ -z "$source_dir" ]; then
	use_git=true
fi
if ! $use_git; then
	[ -d "$source_dir" ] || die "no source directory $source_dir"
	source_dir=$(cd "$source_dir" && pwd)
fi
$use_git && apt_install "${GIT_PACKAGES[@]}"
$check_only || apt_install "${BUILD_PACKAGES[@]}"

work=$(mktemp -d "${TMPDIR:-/tmp}/sp960-runners.XXXXXX")
trap 'rm -rf "$work"' EXIT

# unpack NAME COMMIT TARBALL_SHA256 TAR_SHA256 GIT_URL: the pinned source tree of one
# runner in $work/NAME, checked against both checksums (tarball) or the commit and the tar
# checksum (git).
unpack() {
	local name=$1 commit=$2 tarball_sha=$3 tar_sha=$4 url=$5 got
	if $use_git; then
		log "$name: git checkout of $commit from $url"
		git init -q --bare "$work/$name.git"
		# Only the pinned commit if the server allows it, else the whole history.
		git -C "$work/$name.git" fetch -q --depth 1 "$url" "$commit" 2>/dev/null ||
			git -C "$work/$name.git" fetch -q "$url" '+refs/heads/*:refs/heads/*' '+refs/tags/*:refs/tags/*'
		[ "$(git -C "$work/$name.git" rev-parse --verify -q "$commit^{commit}")" = "$commit" ] ||
			die "$name: $url has no commit $commit"
		git -C "$work/$name.git" archive --format=tar --prefix="$name/" "$commit" >"$work/$name.tar"
		got=$(sha256 <"$work/$name.tar")
		[ "$got" = "$tar_sha" ] ||
			die "$name: git archive of $commit has sha256 $got, expected $tar_sha"
	else
		local tarball=$source_dir/$name.tar.gz
		[ -f "$tarball" ] || die "missing source tarball $tarball"
		log "$name: $tarball"
		got=$(sha256 <"$tarball")
		[ "$got" = "$tarball_sha" ] || die "$tarball has sha256 $got, expected $tarball_sha"
		gunzip -c "$tarball" >"$work/$name.tar"
		got=$(sha256 <"$work/$name.tar")
		[ "$got" = "$tar_sha" ] || die "the tar in $tarball has sha256 $got, expected $tar_sha"
	fi
	tar -xf "$work/$name.tar" -C "$work"
	rm -f "$work/$name.tar"
}

if $check_only; then
	unpack "$FASTCHESS_NAME" "$FASTCHESS_COMMIT" "$FASTCHESS_TARBALL_SHA256" "$FASTCHESS_TAR_SHA256" "$FASTCHESS_GIT"
	unpack "$CUTECHESS_NAME" "$CUTECHESS_COMMIT" "$CUTECHESS_TARBALL_SHA256" "$CUTECHESS_TAR_SHA256" "$CUTECHESS_GIT"
	log "sources checked: $FASTCHESS_NAME ($FASTCHESS_COMMIT), $CUTECHESS_NAME ($CUTECHESS_COMMIT)"
	exit 0
fi

start=$(date +%s)
if ! fastchess_ok; then
	unpack "$FASTCHESS_NAME" "$FASTCHESS_COMMIT" "$FASTCHESS_TARBALL_SHA256" "$FASTCHESS_TAR_SHA256" "$FASTCHESS_GIT"
	log "building fastchess $FASTCHESS_COMMIT with -j$jobs"
	# GIT_SHA/GIT_DATE: the source has no .git, so give the version string its commit;
	# NATIVE: a generic x86-64 binary (upstream's default is -march=native, which a cached
	# binary may not survive on another CPU). ZLIB stays off: no LGPL gzip code inside.
	make -C "$work/$FASTCHESS_NAME" -j"$jobs" \
		GIT_SHA="$FASTCHESS_SHORT" GIT_DATE="$FASTCHESS_DATE" NATIVE=-march=x86-64 >&2
	install -m 0755 "$work/$FASTCHESS_NAME/fastchess" "$dest/fastchess"
fi
if ! cutechess_ok; then
	unpack "$CUTECHESS_NAME" "$CUTECHESS_COMMIT" "$CUTECHESS_TARBALL_SHA256" "$CUTECHESS_TAR_SHA256" "$CUTECHESS_GIT"
	log "building cutechess-cli $CUTECHESS_TAG ($CUTECHESS_COMMIT) with -j$jobs"
	# Only the command-line target; CMake still looks for the Qt GUI modules.
	cmake -S "$work/$CUTECHESS_NAME" -B "$work/$CUTECHESS_NAME/build" \
		-DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF >&2
	cmake --build "$work/$CUTECHESS_NAME/build" --target cli -j"$jobs" >&2
	install -m 0755 "$work/$CUTECHESS_NAME/build/cutechess-cli" "$dest/cutechess-cli"
fi

fastchess_ok || die "installed fastchess does not report '$FASTCHESS_VERSION'"
cutechess_ok || die "installed cutechess-cli does not report '$CUTECHESS_VERSION'"
log "installed in $dest after $(($(date +%s) - start)) s: $FASTCHESS_VERSION; $CUTECHESS_VERSION"
