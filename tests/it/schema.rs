//! Every rendered file passes strict Kubernetes 1.33 schema validation (unknown fields and
//! wrong types rejected), with `kubernetes-validate --strict` from PyPI. `scripts/test` installs
//! it and sets KUBERNETES_VALIDATE; a plain `cargo test` skips these tests as ignored.

use crate::common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const KUBERNETES_VERSION: &str = "1.33.0";

fn validator() -> PathBuf {
    let path = std::env::var_os("KUBERNETES_VALIDATE").map_or_else(
        || root().join(".venv/bin/kubernetes-validate"),
        PathBuf::from,
    );
    assert!(
        path.exists(),
        "kubernetes-validate not found at {}; run scripts/test, which installs it",
        path.display()
    );
    path
}

/// Validates every YAML file under `dir`; returns (success, report).
fn validate_dir(dir: &Path) -> (bool, String) {
    let files: Vec<PathBuf> = read_tree(dir)
        .keys()
        // Kubernetes objects live under bootstrap/ and manifests/ (secrets/clouds.yaml is not one).
        .filter(|p| p.starts_with("bootstrap/") || p.starts_with("manifests/"))
        .filter(|p| Path::new(p).extension().is_some_and(|e| e == "yaml"))
        .map(|p| dir.join(p))
        .collect();
    assert!(
        !files.is_empty(),
        "nothing to validate under {}",
        dir.display()
    );
    let out = Command::new(validator())
        .args(["--strict", "--quiet", "-k", KUBERNETES_VERSION])
        .args(&files)
        .output()
        .expect("kubernetes-validate runs");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), report)
}

#[test]
#[ignore = "needs kubernetes-validate: run scripts/test"]
fn every_rendered_file_passes_strict_schema_validation() {
    let proxy = variant("proxy.yaml");
    let proxy = proxy.to_str().expect("utf8");
    let modern = variant("apiserver-modern-strict.yaml");
    let gates = variant("featuregate-custom.yaml");
    let variants: [&[&str]; 3] = [
        &[],
        &["--proxy", proxy, "--namespace", "ccm-test"],
        &[
            "--apiserver",
            modern.to_str().expect("utf8"),
            "--feature-gate",
            gates.to_str().expect("utf8"),
        ],
    ];
    let ca = root().join("testdata/certs/one.pem");
    for platform in PLATFORMS {
        let credentials = root().join(format!("testdata/credentials/{platform}.yaml"));
        let with_secrets: &[&str] = &[
            "--credentials",
            credentials.to_str().expect("utf8"),
            "--ca-bundle",
            ca.to_str().expect("utf8"),
        ];
        for infrastructure in ["infrastructure.yaml", "infrastructure-sno.yaml"] {
            for extra in variants.iter().copied().chain([with_secrets]) {
                let dir = tempfile::tempdir().expect("tempdir");
                let out = render_conformance(platform, infrastructure, extra, dir.path());
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let (ok, report) = validate_dir(dir.path());
                assert!(ok, "{platform} {infrastructure} {extra:?}:\n{report}");
            }
        }
    }
}

#[test]
#[ignore = "needs kubernetes-validate: run scripts/test"]
fn every_older_release_passes_the_same_strict_schema_validation() {
    let proxy = variant("proxy.yaml");
    let credentials_of =
        |platform: &str| root().join(format!("testdata/credentials/{platform}.yaml"));
    for release in ["4.18", "4.19", "4.20", "4.21", "4.22"] {
        for platform in PLATFORMS {
            let credentials = credentials_of(platform);
            let extra: [&str; 6] = [
                "--release",
                release,
                "--proxy",
                proxy.to_str().expect("utf8"),
                "--credentials",
                credentials.to_str().expect("utf8"),
            ];
            let dir = tempfile::tempdir().expect("tempdir");
            let out = render_conformance(platform, "infrastructure.yaml", &extra, dir.path());
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let (ok, report) = validate_dir(dir.path());
            assert!(ok, "{platform} {release}:\n{report}");
        }
    }
}

#[test]
#[ignore = "needs kubernetes-validate: run scripts/test"]
fn external_providers_pass_the_same_strict_schema_validation() {
    let proxy = variant("proxy.yaml");
    let modern = variant("apiserver-modern-strict.yaml");
    let ca = root().join("testdata/certs/one.pem");
    let variants: [&[&str]; 4] = [
        &[],
        &[
            "--proxy",
            proxy.to_str().expect("utf8"),
            "--namespace",
            "ccm-test",
        ],
        &["--apiserver", modern.to_str().expect("utf8")],
        &["--ca-bundle", ca.to_str().expect("utf8")],
    ];
    let mut cases: Vec<(String, &str)> = EXTERNAL_CASES
        .iter()
        .map(|c| (c.infrastructure.to_string(), c.cloud_config))
        .collect();
    cases.push((
        "infrastructure-oci-sno.yaml".into(),
        "oci-cloud-provider.yaml",
    ));
    for (infrastructure, cloud_config) in &cases {
        for extra in variants {
            let dir = tempfile::tempdir().expect("tempdir");
            let out = render_external(infrastructure, Some(cloud_config), extra, dir.path());
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let (ok, report) = validate_dir(dir.path());
            assert!(ok, "{infrastructure} {extra:?}:\n{report}");
        }
    }
}

#[test]
#[ignore = "needs kubernetes-validate: run scripts/test"]
fn oci_and_digitalocean_from_an_install_config_without_their_images_pass_too() {
    let install_config = |dir: &str| {
        root()
            .join("testdata/install-config")
            .join(dir)
            .join("install-config.yaml")
    };
    let oci_config = external("oci-cloud-provider.yaml");
    let do_credentials = root().join("testdata/credentials/digitalocean.yaml");
    let cases: [(&str, &[&str]); 3] = [
        ("external-oci", &["--cloud-config", s(&oci_config)]),
        ("external-digitalocean", &[]),
        (
            "external-digitalocean",
            &["--credentials", s(&do_credentials)],
        ),
    ];
    for (dir, extra) in cases {
        let work = tempfile::tempdir().expect("tempdir");
        let ic = install_config(dir);
        // conformance/images.json holds no key for either: their pinned vendor images run.
        let images = conformance("images.json");
        let mut args = vec![
            "render",
            "--install-config",
            s(&ic),
            "--images",
            s(&images),
            "--dest-dir",
            s(work.path()),
        ];
        args.extend_from_slice(extra);
        let out = ccm_render(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{dir}: {err}");
        assert!(err.contains("spec.defaultImages"), "{dir}: {err}");
        let (ok, report) = validate_dir(work.path());
        assert!(ok, "{dir} {extra:?}:\n{report}");
    }
}

#[test]
#[ignore = "needs kubernetes-validate: run scripts/test"]
fn a_scaffolded_provider_passes_the_same_strict_schema_validation() {
    let root_dir = tempfile::tempdir().expect("tempdir");
    let providers = root_dir.path().join("providers");
    let out = ccm_render(&[
        "provider",
        "new",
        "acme",
        "--dir",
        providers.to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let infra = root_dir.path().join("infrastructure.yaml");
    let text = std::fs::read_to_string(external("infrastructure-oci.yaml"))
        .expect("infra")
        .replace("platformName: oci", "platformName: acme");
    std::fs::write(&infra, text).expect("write");
    let dest = root_dir.path().join("out");
    let out = ccm_render(&[
        "render",
        "--provider-dir",
        providers.to_str().expect("utf8"),
        "--infrastructure",
        infra.to_str().expect("utf8"),
        "--images",
        external("images.json").to_str().expect("utf8"),
        "--cloud-config",
        external("oci-cloud-provider.yaml").to_str().expect("utf8"),
        "--dest-dir",
        dest.to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (ok, report) = validate_dir(&dest);
    assert!(ok, "{report}");
}

#[test]
#[ignore = "needs kubernetes-validate: run scripts/test"]
fn the_schema_check_rejects_a_misspelled_field() {
    // Proves the validator is strict: the same check must fail on an unknown field.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("manifests")).expect("mkdir");
    std::fs::write(
        dir.path().join("manifests/pod.yaml"),
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: c\n    image: i\n    imagePullPolcy: Always\n",
    )
    .expect("write");
    let (ok, report) = validate_dir(dir.path());
    assert!(!ok, "a misspelled field passed validation:\n{report}");
}
