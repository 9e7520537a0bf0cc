#!/bin/sh
# Install the Debian packages iowhy needs to build and test, if any is missing. Idempotent.
#   install-deps.sh           what the build and the tests need
#   install-deps.sh browser   headless Chromium for the HTML report test (large: only that test
#                             asks for it)
set -e
PKGS="make gcc clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libcmocka-dev libjson-c-dev
      libssl-dev libarchive-dev liburing-dev libfuse3-dev fuse3 pkg-config jq e2fsprogs xfsprogs
      btrfs-progs coreutils util-linux tar gzip fio shellcheck man-db bash-completion strace
      libc6-dbg bindfs sshfs openssh-server openssh-client s3fs
      prometheus libclang-rt-dev linux-perf"
# The local S3 server of the S3fs test (tests/integration/test_fuse_s3fs.sh), from npm: installed
# once the packages are there (below), skipped with a warning when the registry cannot be reached.
install_s3rver() {
	command -v s3rver >/dev/null 2>&1 && return 0
	[ "$(id -u)" = 0 ] && command -v npm >/dev/null 2>&1 || return 0
	echo "iowhy: installing s3rver (npm)" >&2
	npm install -g --no-fund --no-audit s3rver@3.7.1 >/dev/null 2>&1 ||
		echo "iowhy: npm install s3rver failed (registry unreachable?): the S3fs test will skip" >&2
	return 0
}
if [ "$1" = browser ]; then
	PKGS="chromium fonts-dejavu-core nodejs" # nodejs: tests/trace_viewer.js
	install_s3rver() { return 0; }
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && { install_s3rver; exit 0; }
if [ "$(id -u)" != 0 ]; then
	echo "iowhy: missing packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "iowhy: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
install_s3rver
