#!/usr/bin/env bash
# gui-timing.sh — how fast a real window shows an experiment and follows a
# selection, under Xvfb.
#
#   scripts/gui-timing.sh FILE [SELECTIONS]
#   scripts/gui-timing.sh --summary LOG   # mean and max of a log's selection times
#
# Starts cubeview on FILE in a real X window (Xvfb, software OpenGL) with
# $CUBEVIEW_TIMING set, so the window logs wall-clock times: when it first
# shows values (painted: the window is rendered once before the time is
# taken) and, for each selection change, the time from the selection event
# to the painted window. The harness notes the launch time itself, clicks
# the call pane's root, opens it (Right) and moves the selection between
# the root and its first child (Down, Up, …) SELECTIONS times (default 10).
# Needs Xvfb and xdotool (installed with apt-get when missing).
set -euo pipefail
# summary LOG: the selection times' mean and max, compared as numbers
# ("selected 12.3ms" lines; a string comparison would rank 9.5 above 12.3).
summary() {
	awk '/ selected /{v=$3; sub("ms$","",v); v+=0; s+=v; if (n==0 || v>m) m=v; n++} END{if (n) printf "  mean %.1f ms, max %.1f ms over %d\n", s/n, m, n}' "$1"
}
if [ "${1:-}" = --summary ]; then
	summary "${2:?usage: scripts/gui-timing.sh --summary LOG}"
	exit 0
fi
cd "$(dirname "$0")/.."
file=${1:?usage: scripts/gui-timing.sh FILE [SELECTIONS]}
n=${2:-10}
need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
if [ ${#need[@]} -gt 0 ]; then
	apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null; }
fi
work=$(mktemp -d)
# Fresh preferences, so that what a user's windows remembered (metric
# columns above the call pane, modes, panels) changes neither the work
# timed nor where the harness clicks; GUI_TIMING_CONFIG names another.
export XDG_CONFIG_HOME=${GUI_TIMING_CONFIG:-$work/config}
cleanup() {
	[ -n "${app:-}" ] && kill "$app" 2>/dev/null || true
	[ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/cubeview" .

d=91
while [ -e /tmp/.X$d-lock ]; do d=$((d + 1)); done
Xvfb ":$d" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
export DISPLAY=:$d
for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done

log=$work/timing.log
launch=$(date +%s%N)
CUBEVIEW_TIMING=$log "$work/cubeview" "$file" >"$work/app.log" 2>&1 &
app=$!
wait_for() { # pattern count
	for _ in $(seq 600); do
		c=$(grep -c "$1" "$log" 2>/dev/null || true)
		[ "${c:-0}" -ge "$2" ] && return 0
		kill -0 "$app" 2>/dev/null || { echo "gui-timing: cubeview ended:"; cat "$work/app.log"; exit 1; }
		sleep 0.05
	done
	echo "gui-timing: timed out waiting for $1"
	[ -n "${SHOT:-}" ] && command -v import >/dev/null && import -window root "$SHOT"
	cat "$log"
	exit 1
}
wait_for " values " 1
values=$(awk '/ values /{print $1; exit}' "$log")
printf "window with values: %d ms after launch (%s)\n" $(((values - launch) / 1000000)) "$file"

start=$(awk '/ start /{print $1; exit}' "$log")
printf "  of which process start to the first line of the program: %d ms; from there to values: %d ms\n" \
	$(((start - launch) / 1000000)) $(((values - start) / 1000000))

win=$(xdotool search --sync --pid "$app" | tail -1)
sleep 1 # let the background read-ahead of the selected metric finish
eval "$(xdotool getwindowgeometry --shell "$win")"
xdotool mousemove $((X + 500)) $((Y + 81)) click 1
sleep 0.5
xdotool key Right
sleep 0.5
for i in $(seq "$n"); do
	if [ $((i % 2)) = 1 ]; then xdotool key Down; else xdotool key Up; fi
	wait_for " selected " "$i"
	sleep 0.2
done
echo "selection changes (event to painted window):"
awk '/ selected /{print "  " $3}' "$log"
summary "$log"
