#!/usr/bin/env bash
# Installs what building and testing cubeview needs and the machine lacks:
# the C headers Fyne's cgo GL/X11 driver compiles against, and Xvfb,
# xdotool and ImageMagick for the real-window check, valgrind's
# callgrind_annotate as the callgrind importer's reference. Uses apt-get when it
# is available and we are root (or have sudo); otherwise says what is missing.
set -u
need=()
[ -e /usr/include/GL/gl.h ] || need+=(libgl1-mesa-dev)
for h in X11/Xlib.h X11/Xcursor/Xcursor.h X11/extensions/Xrandr.h X11/extensions/Xinerama.h X11/extensions/XInput2.h X11/extensions/xf86vmode.h; do
  [ -e "/usr/include/$h" ] || { need+=(xorg-dev); break; }
done
command -v gcc >/dev/null || need+=(gcc)
command -v pkg-config >/dev/null || need+=(pkg-config)
if [ "${1:-}" = "--test" ]; then
  command -v Xvfb >/dev/null || need+=(xvfb)
  command -v xdotool >/dev/null || need+=(xdotool)
  command -v import >/dev/null || need+=(imagemagick)
  # callgrind_annotate is the reference the callgrind importer is tested against
  command -v callgrind_annotate >/dev/null || need+=(valgrind)
  # binutils' gprof writes the reports the gprof importer is tested against
  command -v gprof >/dev/null || need+=(binutils)
  # perf record and perf report give the perf script reader's reference
  command -v perf >/dev/null || need+=(linux-perf)
  # Extra-P's modeler (run from its snapshot) is the scaling models' reference;
  # scipy's ttest_ind and mannwhitneyu are the significance tests' reference
  /usr/bin/python3 -c 'import numpy, scipy' 2>/dev/null || need+=(python3-numpy python3-scipy)
fi
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "cubeview: missing packages: ${need[*]} (install them as root)" >&2; exit 1
  fi
fi
if ! command -v apt-get >/dev/null; then
  echo "cubeview: missing packages: ${need[*]} (no apt-get here; install them with your package manager)" >&2
  exit 1
fi
echo "cubeview: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 || {
  $sudo apt-get update -qq >/dev/null 2>&1
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null || { echo "cubeview: apt-get install ${need[*]} failed" >&2; exit 1; }
}
