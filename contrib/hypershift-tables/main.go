// hypershift-tables: the two tables ccm-render carries from HyperShift's API, generated from a
// HyperShift checkout so that a new HyperShift is one command away (scripts/hypershift-tables
// copies this package into the checkout's cmd/ and runs it there, against the checkout's own
// vendored API types):
//
//	hypershift-tables shape COMMIT              -> go_shape.txt on stdout
//	hypershift-tables required COMMIT CRD-DIR   -> crd_required.txt on stdout
//
// COMMIT is the HyperShift commit the checkout is at; it only goes into the tables' headers.
// CRD-DIR is the checkout's
// cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests.
package main

import (
	"fmt"
	"os"
)

func main() {
	switch {
	case len(os.Args) == 3 && os.Args[1] == "shape":
		shapeMain(os.Args[2])
	case len(os.Args) == 4 && os.Args[1] == "required":
		requiredMain(os.Args[2], os.Args[3])
	default:
		fmt.Fprintln(os.Stderr, "usage: hypershift-tables shape COMMIT | required COMMIT CRD-DIR")
		os.Exit(2)
	}
}
