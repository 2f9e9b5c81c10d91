//! Rendering for a release (`--release`, or the release of an `image-references` ImageStream):
//! which release is used and said, which are refused, and the proxy, TLS profile, feature gate
//! and dual-stack variants each release renders as CCCMO of that release does (the plain cases
//! are tests/it/conformance.rs).

use crate::common;

use common::*;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

const RELEASES: [&str; 6] = ["4.18", "4.19", "4.20", "4.21", "4.22", "4.23"];

/// Renders a conformance case (HA) for `release` with extra flags; panics unless it succeeds.
fn render(platform: &str, release: &str, extra: &[&str], dest: &Path) -> String {
    let mut flags = vec!["--release", release];
    flags.extend_from_slice(extra);
    let out = render_conformance(platform, "infrastructure.yaml", &flags, dest);
    assert!(
        out.status.success(),
        "{platform} {release}: {}",
        stderr(&out)
    );
    stderr(&out)
}

fn objects(platform: &str, release: &str, extra: &[&str]) -> BTreeMap<String, Value> {
    let dir = tempfile::tempdir().expect("tempdir");
    render(platform, release, extra, dir.path());
    objects_in(&read_tree(dir.path()), "manifests")
}

fn cloud_conf(platform: &str, release: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    render(platform, release, extra, dir.path());
    String::from_utf8(read_tree(dir.path())["config/cloud.conf"].clone()).expect("UTF-8")
}

/// The CCM container of the platform's CCM Deployment.
fn ccm_container(objects: &BTreeMap<String, Value>) -> Value {
    let deployment = objects
        .iter()
        .find(|(key, _)| key.starts_with("Deployment/"))
        .map(|(_, o)| o)
        .expect("a Deployment");
    deployment["spec"]["template"]["spec"]["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .find(|c| c["name"] == "cloud-controller-manager")
        .expect("the CCM container")
        .clone()
}

fn script_lines(container: &Value, prefix: &str) -> Vec<String> {
    container["command"][2]
        .as_str()
        .expect("script")
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with(prefix))
        .map(String::from)
        .collect()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8")
}

/// An image-references ImageStream (what `oc adm release extract` writes) named `version`,
/// holding the conformance images under CCCMO's tag names.
fn image_stream(version: &str, dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(conformance("images.json")).expect("images.json");
    let images: BTreeMap<String, String> = serde_json::from_str(&text).expect("JSON");
    let tags: Vec<Value> = images
        .values()
        .map(|image| {
            let tag = image
                .strip_prefix("quay.io/openshift/origin-")
                .expect("a CCCMO placeholder");
            json!({"name": tag, "from": {"kind": "DockerImage", "name": image}})
        })
        .collect();
    let stream = json!({
        "kind": "ImageStream",
        "apiVersion": "image.openshift.io/v1",
        "metadata": {"name": version, "creationTimestamp": null},
        "spec": {"lookupPolicy": {"local": false}, "tags": tags},
    });
    let file = dir.join(format!("image-references-{version}"));
    std::fs::write(
        &file,
        serde_json::to_string_pretty(&stream).expect("serialisable"),
    )
    .expect("write");
    file
}

/// `render` of the AWS conformance case with `--images images` and extra flags.
fn render_with_images(images: &Path, extra: &[&str], dest: &Path) -> std::process::Output {
    let infrastructure = conformance("aws/infrastructure.yaml");
    let cloud = conformance("aws/cloud-provider-config.yaml");
    let network = conformance("network.yaml");
    let mut args: Vec<String> = [
        "render",
        "--infrastructure",
        path(&infrastructure),
        "--images",
        path(images),
        "--cloud-config",
        path(&cloud),
        "--network",
        path(&network),
        "--dest-dir",
        path(dest),
    ]
    .into_iter()
    .map(String::from)
    .collect();
    args.extend(extra.iter().map(ToString::to_string));
    ccm_render(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

// ---- which release ---------------------------------------------------------------------------

#[test]
fn full_versions_and_aliases_render_their_release() {
    for (version, release) in [
        ("4.20.15", "4.20"),
        ("4.21.0-0.nightly-2026-01-02-030405", "4.21"),
        ("4.23.0-ec.2", "4.23"),
        ("5.0", "4.23"),
        ("5.1.0-rc.1", "4.23"),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        let said = render("aws", version, &[], &a);
        assert!(
            said.contains(&format!("for OpenShift {release} in")),
            "{version}: {said}"
        );
        render("aws", release, &[], &b);
        assert_eq!(read_tree(&a), read_tree(&b), "{version}");
    }
}

#[test]
fn the_default_is_the_newest_release() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance("aws", "infrastructure.yaml", &[], dir.path());
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("for OpenShift 4.23 in"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unknown_release_is_refused_listing_the_supported_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    render("aws", "4.22", &[], &dest);
    for (version, message) in [
        (
            "4.17",
            "--release: 4.17 is not a supported release; supported: 4.18, 4.19, 4.20, 4.21, 4.22, 4.23 (5.0, 5.1: the 4.23 catalogue)",
        ),
        (
            "6.0.1",
            "--release: 6.0.1 is not a supported release; supported: 4.18",
        ),
        (
            "latest",
            "--release: \"latest\" is not an OpenShift version (X.Y, X.Y.Z or X.Y.Z-suffix); supported: 4.18",
        ),
        ("4.22 ", "--release: \"4.22 \" is not an OpenShift version"),
    ] {
        assert_refused_untouched(
            &dest,
            || render_conformance("aws", "infrastructure.yaml", &["--release", version], &dest),
            message,
        );
    }
}

#[test]
fn the_image_stream_of_a_release_selects_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stream = image_stream("4.21.0-0.nightly-2026-01-02-030405", dir.path());
    let from_stream = dir.path().join("stream");
    let out = render_with_images(&stream, &[], &from_stream);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("for OpenShift 4.21 in"),
        "{}",
        stderr(&out)
    );
    let from_flag = dir.path().join("flag");
    render("aws", "4.21", &[], &from_flag);
    assert_eq!(read_tree(&from_stream), read_tree(&from_flag));
    // 4.21 has no AWS admission policy; 4.23 has.
    assert!(
        !objects_in(&read_tree(&from_stream), "manifests")
            .keys()
            .any(|k| k.starts_with("ValidatingAdmissionPolicy"))
    );

    // --release naming the same release (another patch version) is accepted.
    let agreeing = dir.path().join("agreeing");
    let out = render_with_images(&stream, &["--release", "4.21.3"], &agreeing);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(read_tree(&agreeing), read_tree(&from_flag));
}

#[test]
fn a_release_contradicting_the_image_stream_is_refused_naming_both() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stream = image_stream("4.20.15", dir.path());
    let dest = dir.path().join("out");
    render("aws", "4.20", &[], &dest);
    let err = assert_refused_untouched(
        &dest,
        || render_with_images(&stream, &["--release", "4.22"], &dest),
        "--release 4.22 (OpenShift 4.22) contradicts",
    );
    assert!(err.contains("image-references-4.20.15"), "{err}");
    assert!(
        err.contains("the images of release 4.20.15 (4.20)"),
        "{err}"
    );

    let unknown = image_stream("4.16.3", dir.path());
    assert_refused_untouched(
        &dest,
        || render_with_images(&unknown, &[], &dest),
        "metadata.name (the release version): 4.16.3 is not a supported release; supported: 4.18",
    );
}

#[test]
fn json_output_says_the_release() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = render_conformance(
        "gcp",
        "infrastructure.yaml",
        &["--release", "4.19.7", "--output", "json"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(summary["release"], "4.19");
    assert_eq!(summary["formatVersion"], 1);
}

#[test]
fn check_and_diff_compare_against_the_release_asked_for() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    render("ibmcloud", "4.21", &[], &dest);
    let before = read_tree(&dest);
    let same = render_conformance(
        "ibmcloud",
        "infrastructure.yaml",
        &["--release", "4.21", "--check"],
        &dest,
    );
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(stderr(&same).contains("up to date for OpenShift 4.21"));
    let upgrade = render_conformance(
        "ibmcloud",
        "infrastructure.yaml",
        &["--release", "4.22", "--diff", "--color", "never"],
        &dest,
    );
    assert_eq!(upgrade.status.code(), Some(1), "{}", stderr(&upgrade));
    let diff = String::from_utf8(upgrade.stdout).expect("UTF-8");
    // 4.22 replaces IBM's fixed cipher list with the Intermediate profile and adds the version.
    assert!(
        diff.contains("+          --tls-min-version=VersionTLS12 \\"),
        "{diff}"
    );
    assert!(
        diff.contains("-          --tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,"),
        "{diff}"
    );
    assert_eq!(read_tree(&dest), before, "--diff wrote");
}

// ---- variants per release --------------------------------------------------------------------

#[test]
fn the_proxy_goes_to_every_ccm_container_in_every_release() {
    let proxy = variant("proxy.yaml");
    for release in RELEASES {
        for platform in ["aws", "azure"] {
            let objects = objects(platform, release, &["--proxy", path(&proxy)]);
            let env = ccm_container(&objects)["env"].clone();
            let names: Vec<&str> = env
                .as_array()
                .expect("env")
                .iter()
                .filter_map(|e| e["name"].as_str())
                .collect();
            assert!(
                names.ends_with(&["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"]),
                "{platform} {release}: {names:?}"
            );
        }
    }
    // 4.18's Azure CCM has its own AZURE_FEDERATED_TOKEN_FILE before the proxy variables.
    let objects = objects("azure", "4.18", &["--proxy", path(&proxy)]);
    let env = ccm_container(&objects)["env"].clone();
    assert_eq!(env[2]["name"], "AZURE_FEDERATED_TOKEN_FILE", "{env}");
}

#[test]
fn the_tls_profile_reaches_the_ccms_from_4_22_only() {
    let modern = variant("apiserver-modern-strict.yaml");
    let modern = ["--apiserver", path(&modern)];
    for release in RELEASES {
        for platform in PLATFORMS {
            let tls = script_lines(
                &ccm_container(&objects(platform, release, &modern)),
                "--tls-",
            );
            let fixed_ciphers = matches!(platform, "ibmcloud" | "powervs" | "nutanix");
            match (release >= "4.22", fixed_ciphers) {
                (true, _) => assert_eq!(
                    tls,
                    ["--tls-min-version=VersionTLS13 \\"],
                    "{platform} {release}"
                ),
                // IBM Cloud, Power VS and Nutanix carried a fixed list, whatever the profile.
                (false, true) => {
                    assert_eq!(tls.len(), 1, "{platform} {release}: {tls:?}");
                    assert!(
                        tls[0].starts_with("--tls-cipher-suites=TLS_ECDHE_"),
                        "{tls:?}"
                    );
                }
                (false, false) => assert!(tls.is_empty(), "{platform} {release}: {tls:?}"),
            }
        }
    }
}

#[test]
fn bootstrap_pods_carry_no_tls_flags_and_follow_the_ccm_cloud_config_flag() {
    for release in RELEASES {
        for platform in PLATFORMS {
            let dir = tempfile::tempdir().expect("tempdir");
            render(platform, release, &[], dir.path());
            let pods = objects_in(&read_tree(dir.path()), "bootstrap");
            assert_eq!(pods.len(), 1, "{platform} {release}");
            let pod = pods.values().next().expect("a pod");
            let script = pod["spec"]["containers"][0]["command"][2]
                .as_str()
                .unwrap_or_default();
            assert!(!script.contains("--tls-"), "{platform} {release}");
            if platform == "aws" {
                // The 4.18 AWS CCM reads no cloud config; from 4.19 it does.
                assert_eq!(
                    script.contains("--cloud-config="),
                    release != "4.18",
                    "{release}: {script}"
                );
            }
        }
    }
}

#[test]
fn feature_gate_tables_follow_the_release() {
    let tech_preview = variant("featuregate-techpreview.yaml");
    let tech_preview = ["--feature-gate", path(&tech_preview)];
    // VSphereMixedNodeEnv: TechPreview from 4.21 (before: no such template value), Default 4.23.
    for release in RELEASES {
        let default = script_lines(
            &ccm_container(&objects("vsphere", release, &[])),
            "--node-labels",
        );
        let preview = script_lines(
            &ccm_container(&objects("vsphere", release, &tech_preview)),
            "--node-labels",
        );
        assert_eq!(default.len(), usize::from(release == "4.23"), "{release}");
        assert_eq!(preview.len(), usize::from(release >= "4.21"), "{release}");
    }
    // AWSServiceLBNetworkSecurityGroup: read by the transform from 4.21, on by default from 4.22.
    for release in RELEASES {
        let nlb =
            |extra: &[&str]| cloud_conf("aws", release, extra).contains("NLBSecurityGroupMode");
        assert_eq!(nlb(&[]), release >= "4.22", "{release} Default");
        assert_eq!(
            nlb(&tech_preview),
            release >= "4.21",
            "{release} TechPreview"
        );
    }
    // Upstream gates the release's controller-manager knows reach --feature-gates=.
    let dir = tempfile::tempdir().expect("tempdir");
    let custom = dir.path().join("gates.yaml");
    std::fs::write(
        &custom,
        "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec:\n  featureSet: CustomNoUpgrade\n  customNoUpgrade:\n    enabled: [CloudControllerManagerWebhook, CloudControllerManagerWatchBasedRoutesReconciliation]\n",
    )
    .expect("write");
    for (release, want) in [
        (
            "4.21",
            "--feature-gates=CloudControllerManagerWebhook=true \\",
        ),
        (
            "4.22",
            "--feature-gates=CloudControllerManagerWatchBasedRoutesReconciliation=true,CloudControllerManagerWebhook=true \\",
        ),
    ] {
        let lines = script_lines(
            &ccm_container(&objects(
                "openstack",
                release,
                &["--feature-gate", path(&custom)],
            )),
            "--feature-gates=",
        );
        assert_eq!(lines, [want], "{release}");
    }
}

#[test]
fn dual_stack_cloud_configs_follow_the_release() {
    // AWS: the source lists both families (the conformance case is dual-stack).
    for release in RELEASES {
        let conf = cloud_conf("aws", release, &[]);
        let lines: Vec<&str> = conf
            .lines()
            .filter(|l| l.starts_with("NodeIPFamilies"))
            .map(|l| l.split('=').nth(1).unwrap_or_default().trim())
            .collect();
        let want: &[&str] = match release {
            // Synced as the installer wrote it; 4.19-4.21 join the slice; 4.22 repeats the key.
            "4.18" | "4.22" | "4.23" => &["ipv4", "ipv6"],
            _ => &["ipv4,ipv6"],
        };
        assert_eq!(lines, want, "{release}");
    }
    // vSphere on a dual-stack network: the same values in every release; key order and the
    // vCenters the Infrastructure does not list differ.
    let dir = tempfile::tempdir().expect("tempdir");
    let network = dir.path().join("network.yaml");
    std::fs::write(
        &network,
        "apiVersion: config.openshift.io/v1\nkind: Network\nmetadata:\n  name: cluster\nspec:\n  serviceNetwork: [172.30.0.0/16, 'fd02::/112']\n",
    )
    .expect("write");
    let vsphere = |release: &str| {
        let out_dir = tempfile::tempdir().expect("tempdir");
        let dest = out_dir.path().join("out");
        let out = ccm_render(&[
            "render",
            "--release",
            release,
            "--infrastructure",
            path(&conformance("vsphere/infrastructure.yaml")),
            "--images",
            path(&conformance("images.json")),
            "--cloud-config",
            path(&conformance("vsphere/cloud-provider-config.yaml")),
            "--network",
            path(&network),
            "--dest-dir",
            path(&dest),
        ]);
        assert!(out.status.success(), "{release}: {}", stderr(&out));
        String::from_utf8(read_tree(&dest)["config/cloud.conf"].clone()).expect("UTF-8")
    };
    let newest: Value = ccm_catalogue::yaml::from_str(&vsphere("4.23")).expect("YAML");
    assert_eq!(
        newest["global"]["ipFamily"],
        json!(["ipv4", "ipv6"]),
        "{newest}"
    );
    for release in RELEASES {
        let text = vsphere(release);
        let value: Value = ccm_catalogue::yaml::from_str(&text).expect("YAML");
        assert_eq!(value, newest, "{release}");
        let top: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).collect();
        let want = if release == "4.23" {
            ["global:", "labels:", "nodes:", "vcenter:"]
        } else {
            ["global:", "vcenter:", "labels:", "nodes:"]
        };
        assert_eq!(top, want, "{release}");
    }
}

// ---- providers and releases ------------------------------------------------------------------

#[test]
fn a_provider_dir_provider_renders_only_for_the_releases_it_declares() {
    let dir = tempfile::tempdir().expect("tempdir");
    let providers = dir.path().join("providers");
    let out = ccm_render(&["provider", "new", "acme", "--dir", path(&providers)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let descriptor = providers.join("acme/provider.yaml");
    let text = std::fs::read_to_string(&descriptor).expect("provider.yaml");
    std::fs::write(
        &descriptor,
        format!("{text}  releases: [\"4.22\", \"4.23\"]\n"),
    )
    .expect("write");
    let infra = dir.path().join("infrastructure.yaml");
    let infra_text = std::fs::read_to_string(external("infrastructure-oci.yaml"))
        .expect("infra")
        .replace("platformName: oci", "platformName: acme");
    std::fs::write(&infra, infra_text).expect("write");
    let run = |release: &str, dest: &Path| {
        ccm_render(&[
            "render",
            "--provider-dir",
            path(&providers),
            "--infrastructure",
            path(&infra),
            "--images",
            path(&external("images.json")),
            "--release",
            release,
            "--dest-dir",
            path(dest),
        ])
    };
    let ok = dir.path().join("ok");
    let out = run("4.22.1", &ok);
    assert!(out.status.success(), "{}", stderr(&out));
    let dest = dir.path().join("out");
    std::fs::create_dir(&dest).expect("mkdir");
    assert_refused_untouched(
        &dest,
        || run("4.21", &dest),
        "acme/provider.yaml: spec.releases: the provider acme renders for 4.22, 4.23, not for OpenShift 4.21",
    );

    std::fs::write(&descriptor, format!("{text}  releases: [\"4.17\"]\n")).expect("write");
    let out = ccm_render(&["provider", "check", path(&providers)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "provider.yaml: spec.releases[0]: \"4.17\" is not a release (X.Y); supported: 4.18"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn releases_lists_every_release_with_its_commit_and_changes() {
    let out = ccm_render(&["releases", "--output", "json"]);
    assert!(out.status.success());
    let summary: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(summary["default"], "4.23");
    let names: Vec<&str> = summary["releases"]
        .as_array()
        .expect("releases")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, RELEASES);
    // The commits of conformance/releases/README.md.
    let readme = std::fs::read_to_string(conformance("releases/README.md")).expect("README");
    for release in summary["releases"].as_array().expect("releases") {
        let row = format!(
            "| {} | `{}` |",
            release["name"].as_str().expect("name"),
            release["cccmo"]["commit"].as_str().expect("commit")
        );
        assert!(readme.contains(&row), "{row}");
    }
}
