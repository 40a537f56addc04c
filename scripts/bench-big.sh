#!/usr/bin/env bash
# bench-big.sh — big-file measurements: a 330 MB .cubex (10k call paths ×
# 1,024 locations × 4 DOUBLE metrics, stored EXCLUSIVE and INCLUSIVE) and a
# 1.3 GB one (20k × 8,192 × 1) that is browsed under a 1 GiB memory limit.
#
#   scripts/bench-big.sh            # files go to $BENCH_DIR (default /tmp/cubeview-bench)
#
# Generated files are kept between runs (never inside the repository).
# Times are best of $RUNS (default 3): wall clock and CPU (user + system);
# on a shared machine CPU time is the steadier figure. Peak memory is the
# maximum resident set. The 1 GiB limit is GOMEMLIMIT=1GiB plus an
# address-space limit (ulimit -v, $LIMIT_KB, default 3 GiB): the Go runtime
# and the C libraries of the GUI reserve about 1.6 GB of address space
# without using it, so a bare `ulimit -v 1G` stops any cubeview process
# (this version or an older one) before it reads a byte. The peak resident
# memory printed is what must stay below 1 GiB.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${BENCH_DIR:-/tmp/cubeview-bench}
runs=${RUNS:-3}
mkdir -p "$dir"
case "$dir" in "$PWD"/*) echo "bench-big: BENCH_DIR must be outside the repository" >&2; exit 2;; esac
command -v /usr/bin/time >/dev/null || { echo "bench-big: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

echo "== building"
go build -o "$dir/cubeview" .
go build -o "$dir/gencube" ./internal/synth/gencube
cv=$dir/cubeview

gen() { # name args…
	local f=$dir/$1; shift
	[ -s "$f" ] || { echo "generating $f"; "$dir/gencube" "$@" -o "$f"; }
}
gen big-excl.cubex -cnodes 10000 -locations 1024 -threads 4 -nodes 16 -metrics 4
gen big-incl.cubex -cnodes 10000 -locations 1024 -threads 4 -nodes 16 -metrics 4 -inclusive
gen huge.cubex -cnodes 20000 -locations 8192 -threads 8 -nodes 64 -metrics 1
gen small.cubex -cnodes 2000 -locations 256 -threads 4 -nodes 4 -metrics 2
gen small2.cubex -cnodes 2000 -locations 256 -threads 4 -nodes 4 -metrics 2 -seed 2 -density 0.7
ls -l "$dir"/*.cubex

# best LABEL CMD…: runs CMD $runs times (output discarded), prints the best
# wall time, the best CPU time and the largest peak memory.
best() {
	local label=$1; shift
	local bw=999999 bc=999999 mr=0 t
	for _ in $(seq "$runs"); do
		if ! /usr/bin/time -o "$dir/time.txt" -f "%e %U %S %M" "$@" >/dev/null 2>"$dir/stderr.txt"; then
			echo "FAILED: $label"; tail -3 "$dir/stderr.txt"; return 1
		fi
		read -r w u s m < <(tail -1 "$dir/time.txt")
		bw=$(awk -v a="$bw" -v b="$w" 'BEGIN{print (b<a)?b:a}')
		bc=$(awk -v a="$bc" -v b="$u" -v c="$s" 'BEGIN{x=b+c; print (x<a)?x:a}')
		mr=$(( m > mr ? m : mr ))
	done
	printf "%-44s wall %6.2f s   cpu %6.2f s   peak %7d MB\n" "$label" "$bw" "$bc" $((mr / 1024))
}

echo "== 330 MB: reading the whole file vs. per-call-path inclusive totals of m0"
best "cat big-excl.cubex" cat "$dir/big-excl.cubex"
best "cubeview tree --metric m0 (EXCLUSIVE)" "$cv" tree --metric m0 "$dir/big-excl.cubex"
best "cubeview tree --metric m0 (INCLUSIVE)" "$cv" tree --metric m0 "$dir/big-incl.cubex"
best "cubeview info (4 metric totals)" "$cv" info "$dir/big-excl.cubex"
best "cubeview flat --metric m0" "$cv" flat --metric m0 "$dir/big-excl.cubex"

echo "== 1.3 GB under GOMEMLIMIT=1GiB and ulimit -v ${LIMIT_KB:-3145728} KB (peak must stay below 1024 MB)"
limit=${LIMIT_KB:-3145728}
limited=(bash -c 'ulimit -v "$0"; GOMEMLIMIT=1GiB exec "$@"' "$limit")
best "tree --metric m0 (1.3 GB)" "${limited[@]}" "$cv" tree --metric m0 "$dir/huge.cubex"
best "info (1.3 GB)" "${limited[@]}" "$cv" info "$dir/huge.cubex"
best "diff huge huge -o huge-diff.cubex" "${limited[@]}" "$cv" diff "$dir/huge.cubex" "$dir/huge.cubex" -o "$dir/huge-diff.cubex" --force
if command -v xvfb-run >/dev/null; then
	best "--snapshot (window of the 1.3 GB file)" "${limited[@]}" xvfb-run -a -s "-screen 0 1400x900x24" "$cv" --snapshot "$dir/huge.png" "$dir/huge.cubex"
	best "--snapshot --hottest (rows on demand)" "${limited[@]}" xvfb-run -a -s "-screen 0 1400x900x24" "$cv" --snapshot "$dir/huge-hot.png" --hottest "$dir/huge.cubex"
fi

echo "== the same results in memory and row by row from the file (small.cubex, --mem 1K)"
same() { # label cmd… (run once with the default budget, once with --mem 1K)
	local label=$1; shift
	"$cv" "$@" > "$dir/mem.out" 2>&1
	"$cv" --mem 1K "$@" > "$dir/rows.out" 2>&1
	if cmp -s "$dir/mem.out" "$dir/rows.out"; then echo "same: $label"; else echo "DIFFERENT: $label"; diff "$dir/mem.out" "$dir/rows.out" | head; exit 1; fi
}
same "tree --metric m1" tree --metric m1 "$dir/small.cubex"
same "flat --metric m0" flat --metric m0 "$dir/small.cubex"
same "dump --metric m0" dump --metric m0 "$dir/small.cubex"
"$cv" diff "$dir/small.cubex" "$dir/small2.cubex" -o "$dir/small-diff-mem.cubex" --force >/dev/null
"$cv" --mem 1K diff "$dir/small.cubex" "$dir/small2.cubex" -o "$dir/small-diff-rows.cubex" --force >/dev/null
same "tree of diff(small, small2)" tree --metric m0 "$dir/small-diff-mem.cubex"
"$cv" dump "$dir/small-diff-rows.cubex" > "$dir/rows.out"
"$cv" dump "$dir/small-diff-mem.cubex" > "$dir/mem.out"
cmp -s "$dir/mem.out" "$dir/rows.out" && echo "same: diff written row by row" || { echo "DIFFERENT: diff written row by row"; exit 1; }
if command -v xvfb-run >/dev/null; then
	xvfb-run -a -s "-screen 0 1400x900x24" "$cv" --snapshot "$dir/mem.png" --hottest "$dir/small.cubex"
	xvfb-run -a -s "-screen 0 1400x900x24" "$cv" --mem 1K --snapshot "$dir/rows.png" --hottest "$dir/small.cubex"
	# The pictures are not compared byte for byte: the pointer's hover
	# highlight may differ between runs. Look at them: $dir/mem.png, $dir/rows.png.
	echo "rendered: --snapshot --hottest in memory and row by row ($dir/mem.png, $dir/rows.png)"
fi
echo "bench-big: done"
