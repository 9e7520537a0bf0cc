#!/usr/bin/env bash
# Reproduce seeds 001 and 002 (../shared/seeds/001, 002) on user-space and network file systems
# started here on this machine and torn down afterwards (docs/SEEDS.md):
#   ext4 on a 1 GiB loop device (the local disk), bindfs (plain passthrough, the control), S3fs
#   over the npm s3rver on 127.0.0.1, sshfs over an sshd on 127.0.0.1 with throwaway keys, and the
#   slow test daemon (tests/fuse_slow.c, 20 ms per WRITE).
# Seed 001: `iowhy run -v -- dd if=/dev/urandom of=MNT/f bs=1024 count=N` for 10 and 100 MiB
# (sshfs: 10 MiB only unless SEEDS_SSHFS_100=1: 1 KiB writes over sshfs take minutes).
# Seed 002: `iowhy copy` and `iowhy delete --files 200 --size 64k --jobs 1,4` on ext4 and sshfs.
# The slow daemon: `dd if=/dev/zero bs=128k count=64`.
# Each run leaves NAME.txt (iowhy's report), NAME.json and NAME.dd (dd's own line) in the results
# folder (default results/seeds-fuse-DATE); a summary (dd's rate, iowhy's FUSE lines, the
# copy/delete walls) is printed at the end and kept in summary.txt.
#   bench/seeds_fuse.sh [RESULTS_DIR]
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib_local_servers.sh
IOWHY=${IOWHY:-./iowhy}
OUTDIR=$(realpath -m "${1:-results/seeds-fuse-$(date +%Y%m%d-%H%M%S)}")
[ "$(id -u)" = 0 ] || { echo "seeds_fuse: needs root (BPF tracing, mounts)" >&2; exit 1; }
[ -x "$IOWHY" ] || { echo "seeds_fuse: build first (make)" >&2; exit 1; }
IOWHY=$(realpath "$IOWHY")
for c in bindfs s3fs s3rver sshfs /usr/sbin/sshd losetup mkfs.ext4 python3; do
	command -v "$c" >/dev/null || { echo "seeds_fuse: $c missing (tests/install-deps.sh)" >&2; exit 1; }
done
make -s "${OUT:-build}/fuse_slow" >/dev/null || { echo "seeds_fuse: cannot build fuse_slow" >&2; exit 1; }
SLOW=$(realpath "${OUT:-build}/fuse_slow")
mkdir -p "$OUTDIR" || exit 1
W=$(mktemp -d /tmp/iowhy-seeds.XXXXXX) || exit 1
PIDS=() MNTS=() LOOP=

cleanup() {
	local i
	for ((i = ${#MNTS[@]} - 1; i >= 0; i--)); do
		fusermount3 -u "${MNTS[$i]}" 2>/dev/null || umount "${MNTS[$i]}" 2>/dev/null ||
			umount -l "${MNTS[$i]}" 2>/dev/null
	done
	for i in "${PIDS[@]}"; do kill "$i" 2>/dev/null; done
	sleep 0.3
	for i in "${PIDS[@]}"; do kill -9 "$i" 2>/dev/null; done
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf --one-file-system "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_port() {
	for _ in $(seq 100); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1', $1), 1)" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# --- the file systems ---
mkdir -p "$W"/{ext4,bindsrc,bind,s3,s3mnt,remote,sshmnt,slow,ssh}
truncate -s 1G "$W/disk.img"
LOOP=$(losetup --find --show "$W/disk.img") || exit 1
mkfs.ext4 -q -F -O has_journal "$LOOP" && mount "$LOOP" "$W/ext4" || exit 1
MNTS+=("$W/ext4")

bindfs -f "$W/bindsrc" "$W/bind" &
PIDS+=($!)
MNTS+=("$W/bind")
fuse_mount_wait "$W/bind" $! || { echo "seeds_fuse: bindfs did not mount" >&2; exit 1; }

S3PORT=$(free_port)
s3rver --directory "$W/s3" --address 127.0.0.1 --port "$S3PORT" --configure-bucket iowhy \
	--silent >"$W/s3rver.log" 2>&1 &
PIDS+=($!)
wait_port "$S3PORT" || { echo "seeds_fuse: s3rver did not listen" >&2; exit 1; }
echo "S3RVER:S3RVER" >"$W/passwd" # s3rver's fixed test credentials
chmod 600 "$W/passwd"
s3fs iowhy "$W/s3mnt" -f -o "url=http://127.0.0.1:$S3PORT,use_path_request_style" \
	-o "passwd_file=$W/passwd,dbglevel=warn" 2>"$W/s3fs.log" &
PIDS+=($!)
MNTS+=("$W/s3mnt")
fuse_mount_wait "$W/s3mnt" $! || { echo "seeds_fuse: s3fs did not mount" >&2; exit 1; }

K=$W/ssh
chmod 700 "$K"
ssh-keygen -q -t ed25519 -N '' -f "$K/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$K/id" || exit 1
cp "$K/id.pub" "$K/authorized_keys"
SSHPORT=$(free_port)
sshd_local_config "$K" "$SSHPORT"
/usr/sbin/sshd -f "$K/sshd_config" -D -e 2>"$K/sshd.log" &
PIDS+=($!)
wait_port "$SSHPORT" || { echo "seeds_fuse: sshd did not listen" >&2; exit 1; }
sshfs -f -o "IdentityFile=$K/id,StrictHostKeyChecking=no,UserKnownHostsFile=/dev/null" \
	-o "port=$SSHPORT,BatchMode=yes,ConnectTimeout=10,noforget" \
	"root@127.0.0.1:$W/remote" "$W/sshmnt" 2>"$K/sshfs.log" &
PIDS+=($!)
MNTS+=("$W/sshmnt")
fuse_mount_wait "$W/sshmnt" $! || { echo "seeds_fuse: sshfs did not mount" >&2; exit 1; }

FUSE_SLOW_MS=20 "$SLOW" -f "$W/slow" &
PIDS+=($!)
MNTS+=("$W/slow")
fuse_mount_wait "$W/slow" $! || { echo "seeds_fuse: fuse_slow did not mount" >&2; exit 1; }

# --- the runs ---
rc=0
SUM=$OUTDIR/summary.txt
: >"$SUM"
say() { echo "$*" | tee -a "$SUM"; }
say "seeds_fuse $(date -u '+%F %T UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"

# said JSON: what iowhy said: its explanation's sentences about FUSE, else its first one
said() {
	jq -r '.explanation as $e | ([$e[] | select(test("FUSE"))] | if length > 0 then . else
		$e[0:1] end)[] | "   " + gsub("\n"; " ")' "$1" 2>/dev/null | tee -a "$SUM"
}

# ddrun NAME DIR IF BS COUNT: dd under iowhy run; dd's rate and iowhy's FUSE lines
ddrun() {
	local name=$1 dir=$2 src=$3 bs=$4 count=$5
	sleep 2 # let writeback of the previous run settle
	"$IOWHY" run -v --json "$OUTDIR/$name.json" -o "$OUTDIR/$name.txt" -- \
		dd if="$src" of="$dir/f" bs="$bs" count="$count" 2>"$OUTDIR/$name.dd" || rc=1
	say "== $name: dd $(tail -1 "$OUTDIR/$name.dd")"
	said "$OUTDIR/$name.json"
	rm -f "$dir/f"
}
for fs in ext4 bind s3mnt sshmnt; do
	for mib in 10 100; do
		if [ $fs = sshmnt ] && [ $mib = 100 ] && [ "${SEEDS_SSHFS_100:-0}" != 1 ]; then
			say "== seed001-$fs-${mib}MiB: not run (SEEDS_SSHFS_100=1 runs it: minutes)"
			continue
		fi
		ddrun "seed001-$fs-${mib}MiB" "$W/$fs" /dev/urandom 1024 $((mib * 1024))
	done
done
ddrun slow-daemon "$W/slow" /dev/zero 128k 64

# copyrun WHAT FS: iowhy copy|delete --files 200 --size 64k --jobs 1,4 on FS; each phase's wall
copyrun() {
	local name=seed002-$1-$2
	sleep 2
	"$IOWHY" "$1" -v --files 200 --size 64k --jobs 1,4 --dir "$W/$2" --json "$OUTDIR/$name.json" \
		-o "$OUTDIR/$name.txt" 2>"$OUTDIR/$name.err" || rc=1
	say "== $name: $(jq -r '[.phases[] | select(.kind == "work") | "\(.column) \(.wall_ns / 1e9 |
		. * 1000 | round / 1000) s (\(200 / (.wall_ns / 1e9) | round) files/s)"] | join("; ")' \
		"$OUTDIR/$name.json" 2>/dev/null)"
	said "$OUTDIR/$name.json"
}
for fs in ext4 sshmnt; do
	copyrun copy $fs
	copyrun delete $fs
done
say "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$OUTDIR"
exit $rc
