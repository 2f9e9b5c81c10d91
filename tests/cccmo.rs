//! `--cccmo-dir` and `provider import`: renders from a checkout of CCCMO
//! (cluster-cloud-controller-manager-operator), and the catalogue brought to one.
//!
//! Two kinds of checkout: CCCMO's own `pkg/cloud` at each release head, where the environment
//! names the folder that holds them (`CCM_RENDER_CCCMO_REFERENCE`, which .ci/run sets when the
//! shared reference folder is there), and template trees these tests write themselves from the
//! catalogue of a release (every platform, every release, everywhere).

mod common;

use ccm_render::cccmo::platforms::PLATFORMS;
use ccm_render::providers::Catalogue;
use ccm_render::releases::Releases;
use common::{assert_refused_untouched, ccm_render, read_tree, stderr};
use std::path::{Path, PathBuf};
use std::process::Output;

/// The folder of CCCMO's `pkg/cloud` at each release head (`<release>/pkg/cloud`), if named.
fn reference() -> Option<PathBuf> {
    std::env::var_os("CCM_RENDER_CCCMO_REFERENCE").map(PathBuf::from)
}

fn releases() -> Vec<String> {
    Releases::builtin()
        .expect("releases")
        .all()
        .iter()
        .map(|r| r.name.clone())
        .collect()
}

/// The platform folder of a provider's conformance inputs.
fn inputs(provider: &str) -> PathBuf {
    common::conformance(provider)
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// `render` of a provider's conformance inputs for `release` into `dest`, with `extra` flags.
fn render(provider: &str, release: Option<&str>, dest: &Path, extra: &[&str]) -> Output {
    let dir = inputs(provider);
    let infra = dir.join("infrastructure.yaml");
    let cloud = dir.join("cloud-provider-config.yaml");
    let images = common::conformance("images.json");
    let mut args = vec![
        "render",
        "--infrastructure",
        s(&infra),
        "--images",
        s(&images),
        "--cloud-config",
        s(&cloud),
        "--dest-dir",
        s(dest),
    ];
    if let Some(release) = release {
        args.extend(["--release", release]);
    }
    args.extend(extra);
    ccm_render(&args)
}

/// Writes a checkout of the test's own under `root` for `release`: every platform folder of
/// CCCMO with asset templates made from the catalogue's objects of that release, the parts
/// CCCMO fills in written as the template actions CCCMO's templates use (platform labels,
/// images, the infrastructure name, and from 4.22 the TLS flags with trim markers).
fn own_tree(root: &Path, release: &str) {
    let releases = Releases::builtin().expect("releases");
    let entry = releases.find(release, "--release").expect("release");
    let catalogue = releases
        .catalogue(entry, Catalogue::builtin().expect("catalogue"))
        .expect("as of release");
    let tls = ccm_render::releases::data::version_of(release) >= (4, 22);
    for platform in PLATFORMS {
        let dir = root.join("pkg/cloud").join(platform.folder).join("assets");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let mut used = std::collections::BTreeSet::new();
        for object in &catalogue.providers[platform.provider].manifests {
            let kind = object["kind"].as_str().expect("kind");
            let asset = platform
                .assets
                .iter()
                .find(|a| a.kind == kind && !used.contains(a.file))
                .unwrap_or_else(|| panic!("{}: no asset left for a {kind}", platform.folder));
            used.insert(asset.file);
            let mut text = ccm_render::yaml::to_string(object).expect("yaml");
            for label in ["cloud-controller-manager", "cloud-node-manager"] {
                text = text.replace(
                    &format!(
                        "infrastructure.openshift.io/{label}: {}\n",
                        platform.platform_type
                    ),
                    &format!("infrastructure.openshift.io/{label}: {{{{ .cloudproviderName }}}}\n"),
                );
            }
            for (field, key) in platform.images {
                let tag = ccm_render::inputs::images::image_stream::tag_for(key).expect("tag");
                text = text.replace(
                    &format!("image: quay.io/openshift/origin-{tag}\n"),
                    &format!("image: {{{{ .images.{field} }}}}\n"),
                );
            }
            text = text.replace(
                "value: mycluster-abcde\n",
                "value: {{ .infrastructureName }}\n",
            );
            if tls {
                text = with_tls_block(&text);
            }
            std::fs::write(dir.join(asset.file), text).expect("write");
        }
    }
}

/// `text` with CCCMO's TLS block before each script line `--secure-port=0`.
fn with_tls_block(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("--secure-port=0") {
            let indent = &line[..line.len() - line.trim_start().len()];
            for (value, flag) in [
                ("tlsCipherSuites", "--tls-cipher-suites"),
                ("tlsMinVersion", "--tls-min-version"),
            ] {
                out.push_str(&format!(
                    "{indent}{{{{- if .{value} }}}}\n{indent}{flag}={{{{ .{value} }}}} \\\n{indent}{{{{- end }}}}\n"
                ));
            }
        }
        out.push_str(line);
    }
    out
}

/// A copy of `from` at `to`.
fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in read_tree(from) {
        let path = to.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
}

/// Every case of `render --release X.Y --cccmo-dir <tree>` is byte for byte `render --release
/// X.Y`; `tree(release)` gives the checkout.
fn assert_renders_as_catalogue(tree: impl Fn(&str) -> PathBuf, pass_release: bool) {
    let work = tempfile::tempdir().expect("tmp");
    let mut cases = 0;
    for release in releases() {
        let checkout = tree(&release);
        for platform in PLATFORMS {
            let (a, b) = (
                work.path()
                    .join(format!("{release}-{}-a", platform.provider)),
                work.path()
                    .join(format!("{release}-{}-b", platform.provider)),
            );
            let out = render(platform.provider, Some(&release), &a, &[]);
            assert!(out.status.success(), "{}", stderr(&out));
            let flag_release = pass_release.then_some(release.as_str());
            let out = render(
                platform.provider,
                flag_release,
                &b,
                &["--cccmo-dir", s(&checkout)],
            );
            assert!(
                out.status.success(),
                "{release} {}: {}",
                platform.provider,
                stderr(&out)
            );
            assert_eq!(
                read_tree(&a),
                read_tree(&b),
                "{release} {}: --cccmo-dir renders otherwise",
                platform.provider
            );
            cases += 1;
        }
    }
    assert_eq!(cases, 54);
}

#[test]
fn every_release_and_platform_renders_byte_identical_from_a_tree_of_its_own_templates() {
    let work = tempfile::tempdir().expect("tmp");
    for release in releases() {
        own_tree(&work.path().join(&release), &release);
    }
    assert_renders_as_catalogue(|r| work.path().join(r), true);
}

#[test]
fn every_release_head_of_cccmo_renders_byte_identical_and_tells_its_release() {
    let Some(reference) = reference() else {
        eprintln!("CCM_RENDER_CCCMO_REFERENCE is not set: CCCMO's release heads are not here");
        return;
    };
    // No --release: each head's Go files tell its release.
    assert_renders_as_catalogue(|r| reference.join(r), false);
    let dest = tempfile::tempdir().expect("tmp");
    let out = render(
        "aws",
        None,
        dest.path(),
        &["--cccmo-dir", s(&reference.join("4.21"))],
    );
    let err = stderr(&out);
    assert!(
        err.contains("is CCCMO release-4.21 6148c0cc: its Go files are that release head's")
            && err.contains("OpenShift 4.21"),
        "{err}"
    );
}

/// `matrix --check` of a built-in matrix against the checkout at `tree` after `edit` of one
/// file: the files it lists.
fn matrix_check_after_edit(
    tree: &Path,
    release: Option<&str>,
    edit: (&str, &str, &str),
) -> Vec<String> {
    let work = tempfile::tempdir().expect("tmp");
    let dest = work.path().join("m");
    let mut args = vec!["matrix", "--dest-dir", s(&dest)];
    if let Some(release) = release {
        args.extend(["--release", release]);
    }
    let out = ccm_render(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let copy = work.path().join("cccmo");
    copy_tree(tree, &copy);
    let check = |copy: &Path| {
        let mut args = args.clone();
        args.extend(["--cccmo-dir", s(copy), "--check"]);
        ccm_render(&args)
    };
    // Unedited: nothing changes.
    let out = check(&copy);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (file, from, to) = edit;
    let path = copy.join(file);
    let text = std::fs::read_to_string(&path).expect("template");
    assert_eq!(text.matches(from).count(), 1, "{from} once in {file}");
    std::fs::write(&path, text.replace(from, to)).expect("edit");
    let out = check(&copy);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The 16 variants' folders of a provider, each with `file`.
fn every_variant(prefix: &str, provider: &str, file: &str) -> Vec<String> {
    let mut out = Vec::new();
    for topology in ["ha", "sno"] {
        for proxy in ["noproxy", "proxy"] {
            for tls in ["intermediate", "modern"] {
                for set in ["default", "techpreview"] {
                    out.push(format!(
                        "changed {prefix}{provider}/{topology}-{proxy}-{tls}-{set}/manifests/{file}"
                    ));
                }
            }
        }
    }
    out
}

/// The edit: the aws CCM's log level, one line of its script.
const AWS_EDIT: (&str, &str, &str) = (
    "pkg/cloud/aws/assets/deployment.yaml",
    "  -v=2\n",
    "  -v=4\n",
);

#[test]
fn a_one_line_template_edit_shows_in_matrix_check_in_exactly_the_files_it_touches() {
    let work = tempfile::tempdir().expect("tmp");
    let newest = Releases::builtin().expect("releases").newest().name.clone();
    own_tree(work.path(), &newest);
    // The tree has no Go files to tell its release by: --release says it.
    let mut listed = matrix_check_after_edit(work.path(), Some(&newest), AWS_EDIT);
    listed.sort();
    let mut want = every_variant(
        &format!("{newest}/"),
        "aws",
        "deployment-aws-cloud-controller-manager.yaml",
    );
    want.sort();
    assert_eq!(listed, want);
}

#[test]
fn a_one_line_edit_of_a_cccmo_release_head_shows_in_exactly_the_files_it_touches() {
    let Some(reference) = reference() else {
        eprintln!("CCM_RENDER_CCCMO_REFERENCE is not set: CCCMO's release heads are not here");
        return;
    };
    for release in ["4.23", "4.20"] {
        let mut listed = matrix_check_after_edit(&reference.join(release), Some(release), AWS_EDIT);
        listed.sort();
        let mut want = every_variant(
            &format!("{release}/"),
            "aws",
            "deployment-aws-cloud-controller-manager.yaml",
        );
        want.sort();
        assert_eq!(listed, want, "{release}");
    }
}
