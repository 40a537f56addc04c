// Package cli implements cubeview's command-line subcommands: info, dump,
// tree, convert and the algebra operators. Main dispatches them.
package cli
