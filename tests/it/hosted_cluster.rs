//! `render --hosted-cluster`: the 25 cases of `testdata/hosted-cluster/` (HyperShift's own
//! `hcp create cluster --render` fixtures and twins of them, rendered by HyperShift's own code,
//! testdata/hosted-cluster/README.md). Each `render` case renders the objects HyperShift's
//! control-plane-operator creates, compared as `hosted.rs` compares the HostedControlPlane cases;
//! each `refuse` case is exit 2, one line naming the field, nothing written; where HyperShift's
//! stored HostedControlPlane is given (`hcp-derived.yaml`), `--emit-hosted-control-plane` writes
//! the same object.

use crate::common::{assert_refused_untouched, ccm_render, parse_all, read_tree, root};
use std::path::{Path, PathBuf};

/// Every case folder, `<platform>/<case>`.
fn cases() -> Vec<(String, PathBuf)> {
    let base = root().join("testdata/hosted-cluster");
    let mut out = Vec::new();
    for platform in std::fs::read_dir(&base).expect("testdata/hosted-cluster") {
        let platform = platform.expect("entry").path();
        if !platform.is_dir() {
            continue;
        }
        for case in std::fs::read_dir(&platform).expect("platform") {
            let case = case.expect("entry").path();
            let name = case
                .strip_prefix(&base)
                .expect("under base")
                .to_string_lossy()
                .into_owned();
            out.push((name, case));
        }
    }
    out.sort();
    out
}

/// The command line of a case folder.
fn args_of(dir: &Path, dest: &Path, extra: &[&str]) -> Vec<String> {
    // A variant case shares its folder's one payload (`testdata/hosted-cluster-variants/`).
    let own = dir.join("image-references.yaml");
    let images = if own.exists() {
        own
    } else {
        dir.parent()
            .expect("a case has a parent")
            .join("image-references.yaml")
    };
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    let mut args = vec![
        "render".to_string(),
        "--hosted-cluster".into(),
        s(dir.join("hostedcluster.yaml")),
        "--images".into(),
        s(images),
        "--dest-dir".into(),
        s(dest.to_path_buf()),
    ];
    if let Ok(env) = std::fs::read_to_string(dir.join("env")) {
        for line in env.lines().filter(|l| !l.is_empty()) {
            args.extend(["--operator-env".to_string(), line.to_string()]);
        }
    }
    args.extend(extra.iter().map(|s| (*s).to_string()));
    args
}

fn run(dir: &Path, dest: &Path, extra: &[&str]) -> std::process::Output {
    let args = args_of(dir, dest, extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ccm_render(&args)
}

fn expect(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("expect"))
        .expect("expect")
        .trim()
        .to_string()
}

#[test]
fn every_render_case_renders_hypershifts_objects() {
    let mut rendered_cases = 0;
    for (name, dir) in cases().into_iter().filter(|(_, d)| expect(d) == "render") {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dest = tmp.path().join("out");
        let out = run(&dir, &dest, &[]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        crate::hosted::assert_renders_hypershifts_objects(&dest, &dir, &name);
        rendered_cases += 1;
    }
    assert_eq!(rendered_cases, 13);
}

/// Runs the case in `dir` into `dest` with `--emit-hosted-control-plane emitted`: it must be
/// refused in one line naming the field its `refused-field` file holds, `dest` as it was and
/// nothing emitted.
fn assert_refused_naming_its_field(name: &str, dir: &Path, dest: &Path, emitted: &Path) {
    let field = std::fs::read_to_string(dir.join("refused-field")).expect("refused-field");
    let message = format!("hostedcluster.yaml: {}", field.trim());
    let emit = emitted.to_string_lossy().into_owned();
    let err = assert_refused_untouched(
        dest,
        || run(dir, dest, &["--emit-hosted-control-plane", &emit]),
        &message,
    );
    assert_eq!(err.lines().count(), 1, "{name}: {err}");
    assert!(
        !emitted.exists(),
        "{name}: --emit-hosted-control-plane written"
    );
}

/// Renders the case in `dir` into `dest` and returns the HostedControlPlane it derived, as
/// `--emit-hosted-control-plane` wrote it to `emitted`.
fn derived_hosted_control_plane(
    name: &str,
    dir: &Path,
    dest: &Path,
    emitted: &Path,
) -> serde_json::Value {
    let emit = emitted.to_string_lossy().into_owned();
    let out = run(dir, dest, &["--emit-hosted-control-plane", &emit]);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse_all(&std::fs::read_to_string(emitted).expect("emitted")).remove(0)
}

#[test]
fn every_refuse_case_is_refused_naming_the_field_and_writes_nothing() {
    let mut refused = 0;
    for (name, dir) in cases().into_iter().filter(|(_, d)| expect(d) == "refuse") {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dest = tmp.path().join("out");
        std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
        std::fs::write(dest.join("manifests/keep.yaml"), "kept\n").expect("write");
        assert_refused_naming_its_field(&name, &dir, &dest, &tmp.path().join("hcp.yaml"));
        refused += 1;
    }
    assert_eq!(refused, 12);
}

#[test]
fn the_derived_hosted_control_plane_is_the_one_hypershift_stores() {
    let mut compared = 0;
    for (name, dir) in cases() {
        let Ok(text) = std::fs::read_to_string(dir.join("hcp-derived.yaml")) else {
            continue;
        };
        let want = parse_all(&text).remove(0);
        let tmp = tempfile::tempdir().expect("tempdir");
        let emitted = tmp.path().join("hcp.yaml");
        // The three Azure cases whose IDs HyperShift's control-plane-operator cannot parse have a
        // HostedControlPlane too, but the command writes nothing when the render is refused:
        // their derivation is held to it by config::hosted_cluster's unit tests.
        if expect(&dir) == "render" {
            let got = derived_hosted_control_plane(&name, &dir, &tmp.path().join("out"), &emitted);
            assert_eq!(got, want, "{name}");
            compared += 1;
        }
    }
    assert_eq!(compared, 13);
}

/// `testdata/hosted-cluster-variants/`: HostedClusters with other fields set than HyperShift's
/// fixtures (annotations, placement, availability, TLS profiles, feature sets, every member of
/// `configuration` given empty, the management cluster's proxy, names with dots, missing fields),
/// each run through HyperShift's own `reconcileHostedControlPlane` and the checks before it
/// (README there): `--emit-hosted-control-plane` writes the HostedControlPlane HyperShift's code
/// derives, and what HyperShift's code refuses is refused naming the field, nothing written.
#[test]
fn every_variant_derives_what_hypershifts_code_derives_or_is_refused() {
    let base = root().join("testdata/hosted-cluster-variants");
    let (mut derived, mut refused) = (0, 0);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&base)
        .expect("testdata/hosted-cluster-variants")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let tmp = tempfile::tempdir().expect("tempdir");
        let dest = tmp.path().join("out");
        let emitted = tmp.path().join("hcp.yaml");
        if expect(&dir) == "refuse" {
            std::fs::create_dir_all(&dest).expect("mkdir");
            assert_refused_naming_its_field(&name, &dir, &dest, &emitted);
            refused += 1;
            continue;
        }
        let want = std::fs::read_to_string(dir.join("hcp-derived.yaml")).expect("hcp-derived");
        let want = parse_all(&want).remove(0);
        let got = derived_hosted_control_plane(&name, &dir, &dest, &emitted);
        assert_eq!(got, want, "{name}");
        derived += 1;
    }
    assert_eq!((derived, refused), (59, 16));
}

#[test]
fn two_runs_of_a_case_write_the_same_bytes() {
    let dir = root().join("testdata/hosted-cluster/openstack/release-minimal-flags");
    let tmp = tempfile::tempdir().expect("tempdir");
    let trees: Vec<_> = ["a", "b"]
        .iter()
        .map(|name| {
            let dest = tmp.path().join(name);
            let emit = tmp.path().join(format!("{name}.yaml"));
            let out = run(
                &dir,
                &dest,
                &["--emit-hosted-control-plane", &emit.to_string_lossy()],
            );
            assert!(out.status.success());
            (read_tree(&dest), std::fs::read(&emit).expect("emitted"))
        })
        .collect();
    assert_eq!(trees[0], trees[1]);
}

#[test]
fn the_matrix_renders_each_platforms_hosted_cluster_sample_as_render_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let matrix = tmp.path().join("m");
    let out = ccm_render(&["matrix", "--dest-dir", &matrix.to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (platform, case) in [
        ("aws", "release-minimal-flags"),
        ("azure", "ids-minimal-flags"),
        ("openstack", "release-minimal-flags"),
    ] {
        let dir = root()
            .join("testdata/hosted-cluster")
            .join(platform)
            .join(case);
        let dest = tmp.path().join(platform);
        assert!(run(&dir, &dest, &[]).status.success(), "{platform}");
        assert_eq!(
            read_tree(&dest),
            read_tree(&matrix.join("hosted").join(platform).join("cluster-default")),
            "{platform}"
        );
    }
}

#[test]
fn compare_hosted_takes_a_hosted_cluster_and_its_platform() {
    let dir = root().join("testdata/hosted-cluster/aws/release-minimal-flags");
    let (hc, images) = (
        dir.join("hostedcluster.yaml"),
        dir.join("image-references.yaml"),
    );
    let (hc, images) = (hc.to_string_lossy(), images.to_string_lossy());
    let out = ccm_render(&[
        "compare-hosted",
        "--hosted-cluster",
        &hc,
        "--images",
        &images,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("AWS: the standalone CCM (CCCMO, the conformance sample) against the hosted one (HyperShift, the HostedCluster of "),
        "{text}"
    );
    // The HostedCluster's own subnet, not the default sample's.
    assert!(text.contains("hosted: fakeSubnetID"), "{text}");
    let out = ccm_render(&[
        "compare-hosted",
        "GCP",
        "--hosted-cluster",
        &hc,
        "--images",
        &images,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("is a HostedCluster of platform AWS"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn check_writes_neither_the_tree_nor_the_emitted_hosted_control_plane() {
    let dir = root().join("testdata/hosted-cluster/aws/release-minimal-flags");
    let tmp = tempfile::tempdir().expect("tempdir");
    let dest = tmp.path().join("out");
    let emitted = tmp.path().join("hcp.yaml");
    let emit = emitted.to_string_lossy().into_owned();
    // --check's status: 1 while the tree or the emitted file would change, 0 once written.
    let check = |want: i32| {
        let out = run(
            &dir,
            &dest,
            &["--emit-hosted-control-plane", &emit, "--check"],
        );
        assert_eq!(
            out.status.code(),
            Some(want),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    check(1);
    assert!(!dest.exists() && !emitted.exists());
    assert!(
        run(&dir, &dest, &["--emit-hosted-control-plane", &emit])
            .status
            .success()
    );
    check(0);
}
