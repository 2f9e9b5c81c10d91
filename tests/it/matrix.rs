//! `ccm-render matrix`: every provider across the standard variants, one folder per
//! case, the same files as `render` writes for the same inputs, and `--check`/`--diff` showing
//! exactly the cases a change to a provider touches.

use crate::common;

use common::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The cases (`provider/variant`) of a matrix folder's files.
/// The standalone cases of paths under a matrix folder (the hosted cases, under `hosted/`, are
/// `hosted_cases_of`'s).
fn cases_of(paths: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    paths
        .into_iter()
        .filter(|p| !p.starts_with("hosted/"))
        .map(|p| p.splitn(3, '/').take(2).collect::<Vec<_>>().join("/"))
        .collect()
}

/// A copy of the built-in aws provider under `dir/aws`, with `edit` applied to its Deployment.
fn edited_aws(dir: &Path, edit: impl Fn(&str) -> String) {
    let from = root().join("assets/aws");
    for (rel, bytes) in read_tree(&from) {
        let to = dir.join("aws").join(&rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        let text = String::from_utf8(bytes).expect("utf8");
        let text = if rel == "manifests/deployment-aws-cloud-controller-manager.yaml" {
            edit(&text)
        } else {
            text
        };
        std::fs::write(to, text).expect("write");
    }
}

#[test]
fn the_matrix_has_sixteen_cases_per_provider_and_a_rerun_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    let out = ccm_render(&["matrix", "--dest-dir", s(&dest)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree = read_tree(&dest);
    let cases = cases_of(tree.keys().cloned());
    assert_eq!(cases.len(), 12 * 16, "{cases:?}");
    assert!(cases.contains("aws/ha-noproxy-intermediate-default"));
    assert!(cases.contains("oci/sno-proxy-modern-techpreview"));
    assert!(
        stderr(&out).contains("192 cases of 12 providers"),
        "{}",
        stderr(&out)
    );
    let again = ccm_render(&["matrix", "--dest-dir", s(&dest), "--check"]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(again.stdout.is_empty());
    assert_eq!(read_tree(&dest), tree);
}

/// `render` into DEST of the inputs of the matrix case azure/sno-proxy-modern-techpreview, with
/// EXTRA arguments.
fn render_azure_sno_case(dest: &Path, extra: &[&str]) {
    let mut args = vec!["render"];
    args.extend_from_slice(extra);
    let (infra, images, cloud_config, network) = (
        conformance("azure/infrastructure-sno.yaml"),
        conformance("images.json"),
        conformance("azure/cloud-provider-config.yaml"),
        conformance("network.yaml"),
    );
    let (proxy, apiserver, feature_gate) = (
        variant("proxy.yaml"),
        variant("apiserver-modern-strict.yaml"),
        variant("featuregate-techpreview.yaml"),
    );
    args.extend([
        "--infrastructure",
        s(&infra),
        "--images",
        s(&images),
        "--cloud-config",
        s(&cloud_config),
        "--network",
        s(&network),
        "--proxy",
        s(&proxy),
        "--apiserver",
        s(&apiserver),
        "--feature-gate",
        s(&feature_gate),
        "--dest-dir",
        s(dest),
    ]);
    let out = ccm_render(&args);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_case_folder_is_what_render_writes_for_the_same_inputs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let matrix = dir.path().join("m");
    let out = ccm_render(&["matrix", "--dest-dir", s(&matrix)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let single = dir.path().join("single");
    render_azure_sno_case(&single, &[]);
    let case = read_tree(&matrix.join("azure/sno-proxy-modern-techpreview"));
    assert!(!case.is_empty());
    assert_eq!(case, read_tree(&single));
}

#[test]
fn a_one_line_provider_change_shows_exactly_the_cases_it_touches() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    let out = ccm_render(&["matrix", "--dest-dir", s(&dest)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let before = read_tree(&dest);

    // The render sets one replica on single-replica control planes and keeps the manifest's
    // count otherwise: this line changes the eight highly available aws cases, nothing else.
    let providers = dir.path().join("providers");
    edited_aws(&providers, |text| {
        text.replacen("  replicas: 2\n", "  replicas: 3\n", 1)
    });
    let want: BTreeSet<String> = [
        "noproxy-intermediate-default",
        "noproxy-intermediate-techpreview",
        "noproxy-modern-default",
        "noproxy-modern-techpreview",
        "proxy-intermediate-default",
        "proxy-intermediate-techpreview",
        "proxy-modern-default",
        "proxy-modern-techpreview",
    ]
    .iter()
    .map(|v| format!("aws/ha-{v}"))
    .collect();

    let check = ccm_render(&[
        "matrix",
        "--dest-dir",
        s(&dest),
        "--provider-dir",
        s(&providers),
        "--check",
    ]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let err = stderr(&check);
    let listed: Vec<String> = String::from_utf8(check.stdout)
        .expect("utf8")
        .lines()
        .map(|line| {
            let (word, path) = line.split_once(' ').expect("word path");
            assert_eq!(word, "changed", "{line}");
            path.trim().to_string()
        })
        .collect();
    assert_eq!(listed.len(), 8, "{listed:?}");
    assert!(
        listed
            .iter()
            .all(|p| p.ends_with("/manifests/deployment-aws-cloud-controller-manager.yaml")),
        "{listed:?}"
    );
    assert_eq!(cases_of(listed), want);
    // 192 standalone cases and 121 hosted ones (73 from a HostedControlPlane, 48 from a
    // HostedCluster).
    assert!(err.contains("8 of 313 cases would change"), "{err}");
    for case in &want {
        assert!(err.contains(&format!("  {case}\n")), "{err}");
    }

    let diff = ccm_render(&[
        "matrix",
        "--dest-dir",
        s(&dest),
        "--provider-dir",
        s(&providers),
        "--diff",
        "--color",
        "never",
    ]);
    assert_eq!(diff.status.code(), Some(1), "{}", stderr(&diff));
    let _ = stderr(&diff);
    let text = String::from_utf8(diff.stdout).expect("utf8");
    let removed: Vec<&str> = text.lines().filter(|l| l.starts_with("-  ")).collect();
    let added: Vec<&str> = text.lines().filter(|l| l.starts_with("+  ")).collect();
    assert_eq!(removed, ["-  replicas: 2"; 8], "{text}");
    assert_eq!(added, ["+  replicas: 3"; 8], "{text}");
    let headers: BTreeSet<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("+++ "))
        .map(|p| p.trim_start_matches("b/").to_string())
        .collect();
    assert_eq!(cases_of(headers), want, "{text}");
    assert_eq!(read_tree(&dest), before, "--check/--diff wrote");

    let write = ccm_render(&[
        "matrix",
        "--dest-dir",
        s(&dest),
        "--provider-dir",
        s(&providers),
    ]);
    assert!(write.status.success(), "{}", stderr(&write));
    let after = read_tree(&dest);
    let changed: Vec<String> = after
        .iter()
        .filter(|(path, bytes)| before.get(*path) != Some(*bytes))
        .map(|(path, _)| path.clone())
        .collect();
    assert_eq!(cases_of(changed), want);
    // Updated under their locks, the eight folders hold the render and nothing else.
    assert_eq!(files_of_ccm_render(&dest), Vec::<String>::new());
}

#[test]
fn a_provider_without_samples_or_a_bad_inputs_folder_is_refused_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    std::fs::create_dir_all(&dest).expect("mkdir");
    std::fs::write(dest.join("keep"), "x").expect("write");
    let providers = dir.path().join("providers");
    let out = ccm_render(&["provider", "new", "acme", "--dir", s(&providers)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_refused_untouched(
        &dest,
        || {
            ccm_render(&[
                "matrix",
                "--dest-dir",
                s(&dest),
                "--provider-dir",
                s(&providers),
            ])
        },
        "provider acme has no sample inputs built in: give them with --inputs DIR",
    );
    assert_refused_untouched(
        &dest,
        || {
            ccm_render(&[
                "matrix",
                "--dest-dir",
                s(&dest),
                "--inputs",
                s(&dir.path().join("nowhere")),
            ])
        },
        "is not a directory",
    );
}

/// A new provider `acme` (`provider new`) in DIR/providers, and sample inputs of its own in
/// DIR/inputs/acme made from the OCI ones (HA and SNO Infrastructures, images.json); returns the
/// providers folder.
fn acme_with_inputs(dir: &Path) -> PathBuf {
    let providers = dir.join("providers");
    let out = ccm_render(&["provider", "new", "acme", "--dir", s(&providers)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let inputs = dir.join("inputs/acme");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    let infra = std::fs::read_to_string(external("infrastructure-oci.yaml"))
        .expect("read")
        .replace("platformName: oci", "platformName: acme");
    std::fs::write(inputs.join("infrastructure.yaml"), &infra).expect("write");
    std::fs::write(
        inputs.join("infrastructure-sno.yaml"),
        infra.replace(
            "controlPlaneTopology: HighlyAvailable",
            "controlPlaneTopology: SingleReplica",
        ),
    )
    .expect("write");
    std::fs::copy(external("images.json"), inputs.join("images.json")).expect("copy");
    providers
}

/// `matrix` into `dest` with the providers and inputs of [`acme_with_inputs`] under `dir`.
fn acme_matrix(dir: &Path, providers: &Path, dest: &Path, extra: &[&str]) -> std::process::Output {
    let inputs = dir.join("inputs");
    let mut args = vec![
        "matrix",
        "--dest-dir",
        s(dest),
        "--provider-dir",
        s(providers),
        "--inputs",
        s(&inputs),
    ];
    args.extend_from_slice(extra);
    ccm_render(&args)
}

#[test]
fn a_new_provider_renders_from_inputs_of_ones_own() {
    let dir = tempfile::tempdir().expect("tempdir");
    let providers = acme_with_inputs(dir.path());
    let dest = dir.path().join("m");
    let out = acme_matrix(dir.path(), &providers, &dest, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree = read_tree(&dest.join("acme/sno-noproxy-intermediate-default"));
    let deployment = tree
        .iter()
        .find(|(p, _)| p.starts_with("manifests/deployment-"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .expect("a Deployment");
    assert!(deployment.contains("replicas: 1"), "{deployment}");
    assert!(read_tree(&dest.join("acme/ha-noproxy-intermediate-default")).len() > 2);
}

// ---- the release axis ---------------------------------------------------------------------

#[test]
fn release_all_renders_every_release_in_its_own_folder_as_render_release_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    let out = ccm_render(&["matrix", "--dest-dir", s(&dest), "--release", "all"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let releases = ["4.18", "4.19", "4.20", "4.21", "4.22", "4.23"];
    let top: BTreeSet<String> = std::fs::read_dir(&dest)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf8"))
        .collect();
    assert_eq!(
        top,
        releases
            .iter()
            .map(ToString::to_string)
            .chain(["hosted".to_string()])
            .collect()
    );
    for release in releases {
        let cases = cases_of(read_tree(&dest.join(release)).into_keys());
        assert_eq!(cases.len(), 12 * 16, "{release}: {cases:?}");
    }
    assert!(
        stderr(&out).contains("1152 cases of 12 providers"),
        "{}",
        stderr(&out)
    );
    // 4.18 -> 4.19: every Service loses its webhooks port, so the folders differ.
    let case = "aws/ha-noproxy-intermediate-default";
    assert_ne!(
        read_tree(&dest.join("4.18").join(case)),
        read_tree(&dest.join("4.23").join(case))
    );

    // A case folder of release X is what `render --release X` writes for the same inputs.
    let single = dir.path().join("single");
    render_azure_sno_case(&single, &["--release", "4.21"]);
    let case = read_tree(&dest.join("4.21/azure/sno-proxy-modern-techpreview"));
    assert!(!case.is_empty());
    assert_eq!(case, read_tree(&single));

    // One release of the folder, by any of its spellings, is up to date.
    let check = ccm_render(&[
        "matrix",
        "--dest-dir",
        s(&dest),
        "--release",
        "4.21.0-0.nightly-2026-01-02-030405",
        "--check",
    ]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

#[test]
fn two_matrices_of_every_release_are_the_same_tree_of_rendered_files_only() {
    // Cases are written on `--jobs` threads, each folder new beside its siblings: however
    // many threads there are and however they meet, both trees hold the same files, folders
    // and modes, and nothing of ccm-render's own (no lock, journal, temporary file or staging
    // folder). One thread, then sixteen (more than the machine's processors).
    let dir = tempfile::tempdir().expect("tempdir");
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    for (dest, jobs) in [(&first, "1"), (&second, "16")] {
        let out = ccm_render(&[
            "matrix",
            "--release",
            "all",
            "--jobs",
            jobs,
            "--dest-dir",
            s(dest),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(files_of_ccm_render(dir.path()), Vec::<String>::new());
    let tree = snapshot(&first);
    let folders: BTreeSet<String> = read_tree(&first)
        .into_keys()
        .map(|p| p.splitn(4, '/').take(3).collect::<Vec<_>>().join("/"))
        .collect();
    // The hosted cases (`hosted/<platform>/<variant>`) sit beside the releases' folders.
    let (hosted, standalone): (BTreeSet<String>, BTreeSet<String>) =
        folders.into_iter().partition(|f| f.starts_with("hosted/"));
    assert_eq!(
        standalone.len(),
        6 * 12 * 16,
        "release/provider/variant folders"
    );
    let platforms = ["aws", "azure", "gcp", "kubevirt", "openstack", "powervs"];
    for platform in platforms {
        assert!(
            hosted.contains(&format!("hosted/{platform}/default")),
            "hosted/{platform}/default: {hosted:#?}"
        );
    }
    assert!(
        hosted.iter().all(|f| platforms
            .iter()
            .any(|p| f.starts_with(&format!("hosted/{p}/")))),
        "{hosted:#?}"
    );
    assert!(tree == snapshot(&second), "the two matrices differ");
    let beside: BTreeSet<String> = std::fs::read_dir(dir.path())
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf8"))
        .collect();
    assert_eq!(beside, ["first", "second"].map(String::from).into());
}

#[test]
fn an_unknown_matrix_release_is_refused_naming_the_flag_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    std::fs::create_dir_all(&dest).expect("mkdir");
    std::fs::write(dest.join("keep"), "x").expect("write");
    assert_refused_untouched(
        &dest,
        || {
            ccm_render(&[
                "matrix",
                "--dest-dir",
                s(&dest),
                "--release",
                "4.22",
                "--release",
                "4.99",
            ])
        },
        "--release: 4.99 is not a supported release; supported: 4.18",
    );
    assert_refused_untouched(
        &dest,
        || ccm_render(&["matrix", "--dest-dir", s(&dest), "--release", "latest"]),
        "--release: \"latest\" is not an OpenShift version",
    );
}

#[test]
fn a_jobs_count_that_is_not_one_or_more_is_refused_naming_the_flag_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    std::fs::create_dir_all(&dest).expect("mkdir");
    std::fs::write(dest.join("keep"), "x").expect("write");
    for bad in ["0", "two", "-1", ""] {
        assert_refused_untouched(
            &dest,
            || ccm_render(&["matrix", "--dest-dir", s(&dest), &format!("--jobs={bad}")]),
            &format!("invalid value '{bad}' for '--jobs <N>'"),
        );
    }
}

#[test]
fn a_provider_dir_provider_is_rendered_only_for_the_releases_it_declares() {
    let dir = tempfile::tempdir().expect("tempdir");
    let providers = acme_with_inputs(dir.path());
    let descriptor = providers.join("acme/provider.yaml");
    let text = std::fs::read_to_string(&descriptor).expect("provider.yaml");
    std::fs::write(
        &descriptor,
        format!("{text}  releases: [\"4.22\", \"4.23\"]\n"),
    )
    .expect("write");
    let dest = dir.path().join("m");
    let out = acme_matrix(
        dir.path(),
        &providers,
        &dest,
        &["--release", "4.21", "--release", "4.22"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("provider acme is not rendered for 4.21"),
        "{}",
        stderr(&out)
    );
    assert!(!dest.join("4.21/acme").exists());
    assert!(read_tree(&dest.join("4.22/acme/ha-noproxy-intermediate-default")).len() > 2);
    assert!(read_tree(&dest.join("4.21/aws/ha-noproxy-intermediate-default")).len() > 2);
}

#[test]
fn the_matrix_renders_the_hosted_variants_each_as_render_hosted_control_plane_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("m");
    let out = ccm_render(&["matrix", "--dest-dir", s(&dest)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("and 121 hosted cases"),
        "{}",
        stderr(&out)
    );
    let hosted: BTreeSet<String> = read_tree(&dest.join("hosted"))
        .into_keys()
        .map(|p| p.splitn(3, '/').take(2).collect::<Vec<_>>().join("/"))
        .collect();
    assert_eq!(hosted.len(), 121, "{hosted:?}");
    assert!(hosted.contains("aws/cluster-dotted-name"), "{hosted:?}");
    assert!(hosted.contains("azure/managed-azure"), "{hosted:?}");
    assert!(hosted.contains("kubevirt/zones-subnets"), "{hosted:?}");
    // The default variant is the default case of testdata/hosted/, rendered by render.
    for platform in ["aws", "openstack"] {
        let case = root()
            .join("testdata/hosted")
            .join(platform)
            .join("default");
        let rendered = dir.path().join(platform);
        let (hcp, images, creds) = (
            case.join("hcp.yaml"),
            case.join("image-references.yaml"),
            case.join("credentials.yaml"),
        );
        let mut args = vec![
            "render",
            "--hosted-control-plane",
            s(&hcp),
            "--images",
            s(&images),
            "--dest-dir",
            s(&rendered),
        ];
        if creds.exists() {
            args.extend(["--credentials", s(&creds)]);
        }
        assert!(ccm_render(&args).status.success());
        assert_eq!(
            read_tree(&rendered),
            read_tree(&dest.join("hosted").join(platform).join("default")),
            "{platform}"
        );
    }
    let again = ccm_render(&["matrix", "--dest-dir", s(&dest), "--check"]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
}
