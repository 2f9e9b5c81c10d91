//! The conformance floor: for each of CCCMO's nine platforms, HA and single-replica, every
//! object CCCMO's own code produced (testdata/conformance/<platform>/expected for the newest
//! release, testdata/conformance/releases/<X.Y>/<platform>/expected for the older ones) is
//! rendered by `ccm-render render --release X.Y` and equal after normalisation, and nothing
//! else is rendered but the cloud-conf and trusted CA ConfigMaps; and two runs give
//! byte-identical trees.

use crate::common;

use common::*;
use pretty_assertions::assert_eq;

/// The releases with their own expected outputs; the newest is the top-level cases.
const OLDER_RELEASES: [&str; 5] = ["4.18", "4.19", "4.20", "4.21", "4.22"];

/// Where a release's expected outputs are.
fn expected(release: Option<&str>, platform: &str, file: &str) -> std::path::PathBuf {
    match release {
        None => conformance(&format!("{platform}/expected/{file}")),
        Some(r) => conformance(&format!("releases/{r}/{platform}/expected/{file}")),
    }
}

fn render_case(
    release: Option<&str>,
    platform: &str,
    infrastructure: &str,
    dest: &std::path::Path,
) {
    let flags: Vec<&str> = release.map(|r| vec!["--release", r]).unwrap_or_default();
    let out = render_conformance(platform, infrastructure, &flags, dest);
    assert!(
        out.status.success(),
        "{platform} {infrastructure}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check_case(release: Option<&str>, platform: &str, infrastructure: &str, expected_file: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    render_case(release, platform, infrastructure, dir.path());
    let tree = read_tree(dir.path());
    let rendered = objects_in(&tree, "manifests");
    let platform = &format!("{platform} {}", release.unwrap_or("newest"));
    let case = platform.split(' ').next().unwrap_or_default();
    let expected_text =
        std::fs::read_to_string(expected(release, case, expected_file)).expect("expected file");
    let expected_objects = parse_all(&expected_text);
    assert!(!expected_objects.is_empty());
    let mut wanted_keys = std::collections::BTreeSet::new();
    for want in &expected_objects {
        let mut key = key_of(want);
        if key.starts_with("Service/") || key.starts_with("ValidatingAdmissionPolicy") {
            key = key_of(&normalise(want));
        }
        wanted_keys.insert(key.clone());
        let Some(got) = rendered.get(&key) else {
            panic!(
                "{platform} {infrastructure}: {key} not rendered; rendered: {:?}",
                rendered.keys()
            );
        };
        assert_eq!(
            normalise(got),
            normalise(want),
            "{platform} {infrastructure}: {key}"
        );
    }

    // Nothing else: an object a release does not have is as wrong as a missing one.
    for key in rendered.keys() {
        assert!(
            wanted_keys.contains(key) || key.starts_with("ConfigMap/"),
            "{platform} {infrastructure}: {key} rendered, but CCCMO of this release has no such object"
        );
    }

    // The cloud config: the cloud-conf ConfigMap holds CCCMO's transform of the source, byte
    // for byte, and keeps every other source key; config/cloud.conf is the same text but for
    // what the bootstrap copy leaves to the CCM's default.
    let expected_conf = std::fs::read_to_string(expected(release, case, "cloud.conf"))
        .expect("expected cloud.conf");
    let written = String::from_utf8(tree["config/cloud.conf"].clone()).expect("utf8");
    let cm = &rendered["ConfigMap/openshift-cloud-controller-manager/cloud-conf"];
    let in_config_map = cm["data"]["cloud.conf"].as_str().expect("cloud.conf key");
    same_cloud_conf(in_config_map, &expected_conf, release, case);
    if case == "nutanix" {
        same_nutanix_bootstrap_conf(&written, in_config_map, &tree);
    } else {
        assert_eq!(written, in_config_map, "{platform}: config/cloud.conf");
    }
    let source = parse_all(
        &std::fs::read_to_string(conformance(&format!("{case}/cloud-provider-config.yaml")))
            .expect("source"),
    );
    for key in source[0]["data"].as_object().expect("data").keys() {
        if key != "config" {
            assert!(
                cm["data"].get(key).is_some(),
                "{platform}: cloud-conf lacks source key {key}"
            );
        }
    }

    // Determinism: a second run into a fresh directory is byte-identical.
    let again = tempfile::tempdir().expect("tempdir");
    render_case(release, case, infrastructure, again.path());
    assert_eq!(
        read_tree(again.path()),
        tree,
        "{platform} {infrastructure}: second run differs"
    );
}

/// The cloud config is compared byte for byte, except where the reference's byte order is an
/// accident ccm-render does not reproduce: CCCMO 4.18 wrote Azure's JSON in the field order of
/// an older cloud-provider-azure struct (docs/differences-from-cccmo.md); there the JSON values
/// must be equal.
fn same_cloud_conf(written: &str, want: &str, release: Option<&str>, platform: &str) {
    if release == Some("4.18") && platform.starts_with("azure") {
        let got: serde_json::Value = serde_json::from_str(written).expect("JSON");
        let want: serde_json::Value = serde_json::from_str(want).expect("JSON");
        assert_eq!(got, want, "{platform} 4.18: config/cloud.conf");
    } else {
        assert_eq!(
            written,
            want,
            "{platform} {}: config/cloud.conf",
            release.unwrap_or("newest")
        );
    }
}

/// The Nutanix bootstrap copy leaves `prismCentral.credentialRef.namespace` out when it is the
/// pod's `POD_NAMESPACE`, which the CCM defaults it to (nutanix pkg/provider/client.go): the
/// CCM looks for its Secret in the one namespace it watches, whichever a run of the pod sets.
fn same_nutanix_bootstrap_conf(
    written: &str,
    in_config_map: &str,
    tree: &std::collections::BTreeMap<String, Vec<u8>>,
) {
    let pod = parse_all(
        std::str::from_utf8(&tree["bootstrap/pod-nutanix-bootstrap-cloud-controller-manager.yaml"])
            .expect("utf8"),
    );
    let pod_namespace = pod[0]["spec"]["containers"][0]["env"]
        .as_array()
        .expect("env")
        .iter()
        .find(|e| e["name"] == "POD_NAMESPACE")
        .expect("POD_NAMESPACE")["value"]
        .clone();
    let mut want: serde_json::Value = serde_json::from_str(in_config_map).expect("JSON");
    let reference = want["prismCentral"]["credentialRef"]
        .as_object_mut()
        .expect("credentialRef");
    assert_eq!(reference.shift_remove("namespace"), Some(pod_namespace));
    let got: serde_json::Value = serde_json::from_str(written).expect("JSON");
    assert_eq!(got, want, "nutanix: config/cloud.conf");
    assert_eq!(
        written,
        format!("{}\n", serde_json::to_string_pretty(&want).expect("JSON")),
        "nutanix: config/cloud.conf keeps the installer's layout"
    );
}

#[test]
fn every_platform_highly_available_matches_cccmo() {
    for platform in PLATFORMS {
        check_case(None, platform, "infrastructure.yaml", "manifests.yaml");
    }
}

#[test]
fn every_platform_single_replica_matches_cccmo() {
    for platform in PLATFORMS {
        check_case(
            None,
            platform,
            "infrastructure-sno.yaml",
            "manifests-sno.yaml",
        );
    }
}

#[test]
fn every_older_release_highly_available_matches_its_cccmo() {
    for release in OLDER_RELEASES {
        for platform in PLATFORMS {
            check_case(
                Some(release),
                platform,
                "infrastructure.yaml",
                "manifests.yaml",
            );
        }
    }
}

#[test]
fn every_older_release_single_replica_matches_its_cccmo() {
    for release in OLDER_RELEASES {
        for platform in PLATFORMS {
            check_case(
                Some(release),
                platform,
                "infrastructure-sno.yaml",
                "manifests-sno.yaml",
            );
        }
    }
}

#[test]
fn the_newest_release_is_4_23_and_5_0_and_5_1_render_it() {
    for (flag, dir) in [("4.23", "a"), ("5.0", "b"), ("5.1.2", "c")] {
        let base = tempfile::tempdir().expect("tempdir");
        let dest = base.path().join(dir);
        let plain = base.path().join("plain");
        render_case(None, "vsphere", "infrastructure.yaml", &plain);
        render_case(Some(flag), "vsphere", "infrastructure.yaml", &dest);
        assert_eq!(read_tree(&dest), read_tree(&plain), "--release {flag}");
    }
}
