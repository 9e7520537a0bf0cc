#!/bin/sh
# Install the Debian packages iowhy needs to build and test, if any is missing. Idempotent.
set -e
PKGS="make gcc clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libcmocka-dev libjson-c-dev
      libssl-dev libarchive-dev pkg-config jq e2fsprogs xfsprogs coreutils util-linux tar gzip fio
      libclang-rt-dev"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "iowhy: missing packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "iowhy: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
