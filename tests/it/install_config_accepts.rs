//! Install-configs the installer accepts and ccm-render once refused: Nutanix without Prism
//! Element names (asked for only by `--emit-infrastructure`, the one output that carries the
//! name), and vSphere host-group zones (`regionType: ComputeCluster`, `zoneType: HostGroup`),
//! with their gate `VSphereHostVMGroupZonal` checked at the release in force as the installer of
//! that release checks it. The host-group case's derived Infrastructure and cloud-provider-config
//! are held field by field to hand-written installer output by `install_config.rs`
//! (`testdata/install-config/vsphere-hostgroups/`).

use crate::common::*;
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn case_text(dir: &str) -> String {
    std::fs::read_to_string(
        root()
            .join("testdata/install-config")
            .join(dir)
            .join("install-config.yaml"),
    )
    .expect("readable")
}

/// A render of install-config `text` into a fresh folder holding one file of the user's, with
/// `extra` flags: exit status, stderr, the folder's tree before and after, and the path
/// `--emit-infrastructure` would write when `extra` names `EMIT`.
struct Run {
    code: Option<i32>,
    err: String,
    before: BTreeMap<String, Vec<u8>>,
    after: BTreeMap<String, Vec<u8>>,
    emit: PathBuf,
    _work: tempfile::TempDir,
}

const EMIT: &str = "{emit}";

fn render(text: &str, extra: &[&str]) -> Run {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("install-config.yaml");
    std::fs::write(&file, text).expect("write");
    let dest = work.path().join("out");
    std::fs::create_dir(&dest).expect("mkdir");
    std::fs::write(dest.join("README"), "not ours\n").expect("write");
    let emit = work.path().join("derived.yaml");
    let before = read_tree(&dest);
    let mut args: Vec<String> = [
        "render",
        "--images",
        &conformance("images.json").display().to_string(),
        "--install-config",
        &file.display().to_string(),
        "--infrastructure-name",
        "mycluster-abcde",
        "--dest-dir",
        &dest.display().to_string(),
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    args.extend(extra.iter().map(|a| {
        if *a == EMIT {
            emit.display().to_string()
        } else {
            (*a).to_string()
        }
    }));
    let out = ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>());
    Run {
        code: out.status.code(),
        err: stderr(&out),
        before,
        after: read_tree(&dest),
        emit,
        _work: work,
    }
}

/// Exit 2, one line holding every one of `wants`, the folder untouched, nothing emitted.
fn assert_refused(run: &Run, wants: &[&str]) {
    assert_eq!(run.code, Some(2), "{}", run.err);
    assert_eq!(
        run.err.trim_end().lines().count(),
        1,
        "one line: {}",
        run.err
    );
    for want in wants {
        assert!(run.err.contains(want), "expected {want:?} in {}", run.err);
    }
    assert_eq!(run.after, run.before, "dest dir changed: {}", run.err);
    assert!(
        !run.emit.exists(),
        "--emit-infrastructure written: {}",
        run.err
    );
}

/// `text` without the lines `keep` refuses.
fn lines_kept(text: &str, keep: impl Fn(&str) -> bool) -> String {
    text.lines()
        .filter(|l| keep(l))
        .flat_map(|l| [l, "\n"])
        .collect()
}

fn without_prism_element_name(text: &str) -> String {
    let out = lines_kept(text, |l| l.trim() != "name: pe-cluster");
    assert_ne!(out, text, "the case names its Prism Element");
    out
}

#[test]
fn nutanix_without_prism_element_names_renders_what_it_renders_with_them() {
    let named = case_text("nutanix");
    let unnamed = without_prism_element_name(&named);
    let a = render(&named, &[]);
    let b = render(&unnamed, &[]);
    assert_eq!(a.code, Some(0), "{}", a.err);
    assert_eq!(b.code, Some(0), "{}", b.err);
    assert!(
        b.after.contains_key("config/cloud.conf"),
        "{:?}",
        b.after.keys()
    );
    assert_eq!(a.after, b.after);
}

#[test]
fn nutanix_without_a_prism_element_name_cannot_emit_the_infrastructure_and_says_where_it_comes_from()
 {
    let unnamed = without_prism_element_name(&case_text("nutanix"));
    let run = render(&unnamed, &["--emit-infrastructure", EMIT]);
    assert_refused(
        &run,
        &[
            "platform.nutanix.prismElements[0].name",
            "--emit-infrastructure",
            "spec.platformSpec.nutanix.prismElements[0].name",
            "write the Prism Element's name in the install-config",
        ],
    );
    // With the name, the emitted Infrastructure carries it.
    let run = render(&case_text("nutanix"), &["--emit-infrastructure", EMIT]);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let docs = parse_all(&std::fs::read_to_string(&run.emit).expect("emitted"));
    assert_eq!(
        docs[0]["spec"]["platformSpec"]["nutanix"]["prismElements"][0]["name"],
        "pe-cluster"
    );
}

fn without_feature_set(text: &str) -> String {
    lines_kept(text, |l| {
        !l.starts_with("featureSet:")
            && !l.starts_with("featureGate:")
            && !l.contains("VSphereHostVMGroupZonal=true")
    })
}

/// The rendered bootstrap cloud config, as YAML.
fn cloud_conf(tree: &BTreeMap<String, Vec<u8>>) -> Value {
    let text = String::from_utf8(tree["config/cloud.conf"].clone()).expect("UTF-8");
    parse_all(&text).remove(0)
}

#[test]
fn host_group_zones_render_where_their_gate_is_on_at_the_release() {
    let docs_form = case_text("vsphere-hostgroups");
    let bare = without_feature_set(&docs_form);
    // VSphereHostVMGroupZonal: Default-on from 4.22 (openshift/api release-4.22 features.go),
    // TechPreview and DevPreview only before.
    for release in ["4.22", "4.23"] {
        let run = render(&bare, &["--release", release]);
        assert_eq!(run.code, Some(0), "{release}: {}", run.err);
    }
    // The 4.18 installer has no host-group fields (pkg/types/vsphere/platform.go on release-4.18
    // @9094202399); they arrive with 4.19's (installer a17d6efb58).
    let run = render(&docs_form, &["--release", "4.18"]);
    assert_refused(
        &run,
        &[
            "platform.vsphere.failureDomains[0].zoneType: \"HostGroup\": the installer of OpenShift 4.18 has no such field; it arrives in 4.19",
        ],
    );
    for release in ["4.19", "4.21"] {
        let run = render(
            &bare,
            &["--release", release, "--emit-infrastructure", EMIT],
        );
        assert_refused(
            &run,
            &[
                "platform.vsphere.failureDomains[0].zoneType: \"HostGroup\": this field is protected by the VSphereHostVMGroupZonal feature gate",
                &format!(
                    "at OpenShift {release} featureSet TechPreviewNoUpgrade or DevPreviewNoUpgrade enables"
                ),
                "the install-config has the Default feature set",
            ],
        );
        let run = render(&docs_form, &["--release", release]);
        assert_eq!(run.code, Some(0), "{release}: {}", run.err);
        let custom = bare.replace(
            "apiVersion: v1\n",
            "apiVersion: v1\nfeatureSet: CustomNoUpgrade\nfeatureGates:\n- VSphereHostVMGroupZonal=true\n",
        );
        let run = render(&custom, &["--release", release]);
        assert_eq!(run.code, Some(0), "{release}: {}", run.err);
    }
    // CustomNoUpgrade without the gate: off even where the Default set has it.
    let custom_off = bare.replace(
        "apiVersion: v1\n",
        "apiVersion: v1\nfeatureSet: CustomNoUpgrade\nfeatureGates:\n- VSphereMultiNetworks=true\n",
    );
    let run = render(&custom_off, &["--release", "4.23"]);
    assert_refused(
        &run,
        &["VSphereHostVMGroupZonal", "featureSet CustomNoUpgrade"],
    );
}

#[test]
fn host_group_zones_give_the_cloud_config_of_any_zonal_cluster() {
    // CCCMO's vSphere transform of the installer's cloud config: the vCenter with its one
    // datacenter (no port: the install-config gives none) and the openshift-region /
    // openshift-zone tag categories (more than one failure domain); the CCM finds a host-group
    // zone by the zone tag on the ESXi hosts, so nothing else.
    let run = render(&case_text("vsphere-hostgroups"), &[]);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let conf = cloud_conf(&run.after);
    assert_eq!(
        conf["labels"],
        serde_json::json!({"region": "openshift-region", "zone": "openshift-zone"})
    );
    let vcenter = &conf["vcenter"]["vcenter.example.com"];
    assert_eq!(vcenter["datacenters"], serde_json::json!(["DC1"]));
    assert_eq!(vcenter["port"], serde_json::Value::Null);
    assert_eq!(vcenter["server"], "vcenter.example.com");
    assert_eq!(conf["global"]["secretName"], "vsphere-creds");
}

fn edited(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the case");
    text.replacen(from, to, 1)
}

#[test]
fn host_group_failure_domains_the_installer_refuses_are_refused_naming_the_field() {
    let text = case_text("vsphere-hostgroups");
    let at = "platform.vsphere.failureDomains[0]";
    let cases = [
        (
            edited(&text, "      regionType: \"ComputeCluster\"\n", ""),
            format!("{at}.regionType: must specify regionType if zoneType is defined"),
        ),
        (
            edited(&text, "      zoneType: \"HostGroup\"\n", ""),
            format!("{at}.zoneType: must specify zoneType if regionType is defined"),
        ),
        (
            edited(
                &text,
                "regionType: \"ComputeCluster\"",
                "regionType: HostGroup",
            ),
            format!(
                "{at}.regionType: \"HostGroup\": region type cannot be used for host group failure domains"
            ),
        ),
        (
            edited(&text, "        hostGroup: hosts-east\n", ""),
            format!("{at}.topology.hostGroup: must not be empty if zoneType is HostGroup"),
        ),
        (
            edited(&text, "zoneType: \"HostGroup\"", "zoneType: ComputeCluster"),
            format!(
                "{at}.zoneType: \"ComputeCluster\": zoneType must be HostGroup when regionType is ComputeCluster"
            ),
        ),
    ];
    for (bad, want) in &cases {
        let run = render(bad, &["--emit-infrastructure", EMIT]);
        assert_refused(&run, &[want]);
    }
}

#[test]
fn a_host_group_without_a_host_group_zone_still_needs_the_gate() {
    // installer GatedFeatures: a topology.hostGroup alone turns the gate's check on.
    let text = without_feature_set(&case_text("vsphere-hostgroups"))
        .replace("      regionType: \"ComputeCluster\"\n", "")
        .replace("      zoneType: \"HostGroup\"\n", "");
    let run = render(&text, &["--release", "4.21"]);
    assert_refused(
        &run,
        &[
            "platform.vsphere.failureDomains[0].topology.hostGroup: \"hosts-east\": this field is protected by the VSphereHostVMGroupZonal feature gate",
        ],
    );
    // Where the gate is on it renders, with no affinity in the Infrastructure (the zone type
    // is the default, ComputeCluster).
    let run = render(&text, &["--release", "4.23", "--emit-infrastructure", EMIT]);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let docs = parse_all(&std::fs::read_to_string(&run.emit).expect("emitted"));
    let fd = &docs[0]["spec"]["platformSpec"]["vsphere"]["failureDomains"][0];
    assert!(fd.get("zoneAffinity").is_none(), "{fd}");
    assert!(fd.get("regionAffinity").is_none(), "{fd}");
}
