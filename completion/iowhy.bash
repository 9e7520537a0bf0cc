# bash completion for iowhy(1)                                  -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0
# Installed by `make install` as $(PREFIX)/share/bash-completion/completions/iowhy.
# tests/integration/test_cli_install.sh checks these lists against each command's --help.

_iowhy_common="--json -j --output -o --repeat --drop-caches --no-io --freq --no-sample --folded --html --timeline --timeline-max --interval --json-lines --brief -q --detail -v --help -h --version -V"
# attach takes fewer of them (no --repeat, --drop-caches, --dir, --html)
_iowhy_attach="--pid -p --cgroup --all -a --duration --lite --slow --prometheus --json -j --output -o --no-io --freq --no-sample --folded --timeline --timeline-max --interval --json-lines --brief -q --detail -v --help -h --version -V"

# The options of a subcommand (its own, then the common ones it takes).
_iowhy_options()
{
	case $1 in
	run) echo "--sync --user -u $_iowhy_common" ;;
	attach) echo "$_iowhy_attach" ;;
	gen) echo "--strategy --size --count --sync --dir $_iowhy_common" ;;
	bigfile) echo "--size --method --bs --source --sync --no-sync --dir $_iowhy_common" ;;
	read) echo "--size --bs --direct --hash --threads --dir $_iowhy_common" ;;
	rand) echo "--size --bs --op --workers --ops --time --direct --dir $_iowhy_common" ;;
	fsbench) echo "--size --bs-seq --bs-rand --ops --direct --dir $_iowhy_common" ;;
	tar) echo "--members --member-size --readers --gzip --archive --dir $_iowhy_common" ;;
	copy) echo "--files --size --tree --jobs --mode --from --to --dir $_iowhy_common" ;;
	delete) echo "--files --size --tree --jobs --mode --dir $_iowhy_common" ;;
	hunt) echo "--time --depths --stack --write --write-size --json -j --help -h --version -V" ;;
	compare) echo "--help -h --version -V" ;;
	esac
}

_iowhy()
{
	local cur prev words cword cmd i
	_init_completion -n = || return

	# the subcommand: the first word after iowhy
	cmd=${words[1]}
	if [[ $cword -eq 1 ]]; then
		mapfile -t COMPREPLY < <(compgen -W "run attach gen bigfile read rand fsbench tar copy delete hunt compare report flamegraph --help --version -V" -- "$cur")
		return
	fi
	# after run's command word (or --), complete the traced command as a command line
	if [[ $cmd == run ]]; then
		for ((i = 2; i < cword; i++)); do
			case ${words[i]} in
			--) _command_offset $((i + 1)); return ;;
			--sync | --user | -u | --json | -j | --output | -o | --repeat | --freq | --folded | \
				--html | --timeline | --timeline-max) ((i++)) ;;
			-*) ;;
			*) _command_offset "$i"; return ;;
			esac
		done
	fi
	# values of the options that take one
	case $prev in
	--json | -j | --output | -o | --archive | --html | --timeline | --json-lines | --prometheus) _filedir; return ;;
	--cgroup) _filedir -d; return ;;
	--pid | -p)
		mapfile -t COMPREPLY < <(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur")
		return
		;;
	--dir | --from | --to | --sync)
		if [[ $cmd != gen && $cmd != bigfile ]] || [[ $prev != --sync ]]; then
			_filedir -d
			return
		fi
		;;
	--strategy) mapfile -t COMPREPLY < <(compgen -W "loop split direct loop,split,direct" -- "$cur"); return ;;
	--method) mapfile -t COMPREPLY < <(compgen -W "dd fallocate truncate" -- "$cur"); return ;;
	--source) mapfile -t COMPREPLY < <(compgen -W "zero random" -- "$cur"); return ;;
	--hash) mapfile -t COMPREPLY < <(compgen -W "none md5 crc32" -- "$cur"); return ;;
	--op) mapfile -t COMPREPLY < <(compgen -W "read write" -- "$cur"); return ;;
	--mode) mapfile -t COMPREPLY < <(compgen -W "process inproc process,inproc" -- "$cur"); return ;;
	--size | --count | --bs | --bs-seq | --bs-rand | --repeat | --workers | --ops | --time | \
		--members | --member-size | --readers | --files | --tree | --jobs | --threads | --interval | \
		--duration | --slow) return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_iowhy_options "$cmd")" -- "$cur")
	elif [[ $cmd == read || $cmd == rand ]]; then
		_filedir
	fi
} &&
	complete -F _iowhy iowhy

# ex: filetype=sh
