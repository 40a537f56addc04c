//go:build !unix

package model

func addressSpaceLimit() int64 { return 0 }
