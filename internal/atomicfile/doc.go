// Package atomicfile writes files so that nothing is ever half written or
// left behind: the content goes to a temporary file in the target's
// folder, which is renamed over the target when complete.
//
// A new file gets the permissions the umask leaves of 0666; a replaced
// file keeps its permissions (and, where allowed, its owner and group).
// A path that is a symbolic link is written through: the file it points
// to is replaced and the link stays.
//
// Temporary files are named ".NAME.cubeview-HOST-PID-RANDOM.tmp". While
// one exists, SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped ssh
// session) remove it before the process ends the way the signal would
// have ended it; a signal the process was started ignoring (nohup) stays
// ignored. A process killed outright (kill -9,
// a crash, a power cut) cannot do that; the next Write into the same
// folder removes such stale files: those of this host whose process no
// longer runs, and those of the older naming ".NAME.DIGITS.tmp" next to a
// file this program writes, once they are an hour old.
package atomicfile
