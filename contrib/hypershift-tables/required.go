package main

// requiredMain: every object under the HostedCluster CRD's spec (Default feature set, then what
// only the TechPreviewNoUpgrade one has) that requires fields or a least number of properties,
// by path from the root without its leading dot (`spec.platform.aws`): `.key` a property, `[]`
// an item of a list, `{}` a value of a map. Only spec: a HostedCluster that ccm-render reads is
// one a user writes, and the API server ignores the status a create carries. ccm-render carries it
// (src/config/hosted_cluster/crd_required.txt) to refuse, as the API server would, a
// HostedCluster that leaves out a field its CRD requires.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func requiredMain(commit, crdDir string) {
	s, err := crdSchema(filepath.Join(crdDir, "hostedclusters-Hypershift-Default.crd.yaml"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hypershift-tables:", err)
		os.Exit(1)
	}
	var lines []string
	walkRequired("spec", specSchema(s), &lines)
	sort.Strings(lines)
	tp, err := crdSchema(filepath.Join(crdDir, "hostedclusters-Hypershift-TechPreviewNoUpgrade.crd.yaml"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hypershift-tables:", err)
		os.Exit(1)
	}
	var tpLines []string
	walkRequired("spec", specSchema(tp), &tpLines)
	sort.Strings(tpLines)
	inDefault := map[string]bool{}
	for _, l := range lines {
		inDefault[l] = true
	}
	for _, l := range tpLines {
		if !inDefault[l] {
			lines = append(lines, "techpreview "+l)
		}
	}
	fmt.Println("# The fields the HostedCluster CRD requires (`required`) and the objects that must not be empty")
	fmt.Printf("# (`minProperties`), at HyperShift %s: generated from\n", commit)
	fmt.Println("# cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests/")
	fmt.Println("# hostedclusters-Hypershift-Default.crd.yaml. One object a line: its PATH from the root (`.key`")
	fmt.Println("# a property, `[]` a list's item, `{}` a map's value), then each required field, then")
	fmt.Println("# `min=N` for minProperties. A line `techpreview PATH ...` is only in the TechPreviewNoUpgrade")
	fmt.Println("# CRD (hostedclusters-Hypershift-TechPreviewNoUpgrade.crd.yaml), the one that admits GCP and")
	fmt.Println("# OpenStack.")
	for _, l := range lines {
		fmt.Println(l)
	}
}

// specSchema: the schema of the root's spec property.
func specSchema(root map[string]any) map[string]any {
	props, _ := root["properties"].(map[string]any)
	spec, ok := props["spec"].(map[string]any)
	if !ok {
		fmt.Fprintln(os.Stderr, "hypershift-tables: the HostedCluster CRD's schema has no spec")
		os.Exit(1)
	}
	return spec
}

func walkRequired(path string, s map[string]any, out *[]string) {
	var words []string
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			words = append(words, r.(string))
		}
		sort.Strings(words)
	}
	if n, ok := num(s["minProperties"]); ok {
		words = append(words, fmt.Sprintf("min=%v", n))
	}
	if len(words) > 0 {
		*out = append(*out, path+" "+strings.Join(words, " "))
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for k, ps := range props {
			walkRequired(path+"."+k, ps.(map[string]any), out)
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkRequired(path+"[]", items, out)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		walkRequired(path+"{}", ap, out)
	}
}
