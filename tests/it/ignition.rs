//! `render --ignition`: the fragment the installer embeds in bootstrap.ign. The tests marked
//! ignored need CoreOS Ignition (Debian's `ignition` package: `ignition-validate` and the
//! Ignition binary itself); scripts/test installs it through scripts/ignition and sets
//! IGNITION_VALIDATE and IGNITION_BIN.

use crate::common;

use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .expect("exists")
        .permissions()
        .mode()
        & 0o7777
}

fn credentials(platform: &str) -> PathBuf {
    root().join(format!("testdata/credentials/{platform}.yaml"))
}

/// Renders a conformance case with `--credentials` and `extra` into `dest`, asserting success.
fn render(platform: &str, dest: &Path, extra: &[&str]) -> Output {
    let creds = credentials(platform);
    let mut args = vec!["--credentials", s(&creds)];
    args.extend_from_slice(extra);
    let out = render_conformance(platform, "infrastructure.yaml", &args, dest);
    assert!(out.status.success(), "{platform}: {}", stderr(&out));
    out
}

fn tool(var: &str) -> PathBuf {
    let Some(path) = std::env::var_os(var) else {
        panic!("{var} is not set: run scripts/test (it installs Ignition with scripts/ignition)")
    };
    PathBuf::from(path)
}

/// What a node root holds under the places of the map: every directory and file with its
/// mode, and each file's bytes.
type NodeTree = BTreeMap<String, (u32, Option<Vec<u8>>)>;

fn node_tree(root: &Path) -> NodeTree {
    let mut out = NodeTree::new();
    for placement in ccm_render::output::placement::MAP {
        let top = root.join(placement.target.trim_start_matches('/'));
        if !top.exists() {
            continue;
        }
        let mut stack = vec![top];
        while let Some(path) = stack.pop() {
            let rel = path
                .strip_prefix(root)
                .expect("under root")
                .display()
                .to_string();
            let meta = std::fs::symlink_metadata(&path).expect("meta");
            assert!(!meta.file_type().is_symlink(), "{rel} is a link");
            if meta.is_dir() {
                out.insert(rel, (mode(&path), None));
                for entry in std::fs::read_dir(&path).expect("dir") {
                    stack.push(entry.expect("entry").path());
                }
            } else {
                let owner = std::os::unix::fs::MetadataExt::uid(&meta);
                assert_eq!(owner, 0, "{rel} is not root's");
                out.insert(
                    rel,
                    (mode(&path), Some(std::fs::read(&path).expect("read"))),
                );
            }
        }
    }
    out
}

/// Applies an Ignition config to `root` with the real Ignition (stages fetch-offline, then
/// files), as the bootstrap node's initramfs does at first boot.
fn apply_with_ignition(config: &Path, work: &Path) -> PathBuf {
    let root = work.join("ignition-root");
    std::fs::create_dir_all(root.join("etc/selinux")).expect("mkdir");
    // The files stage relabels what it wrote when SELinux is configured; relabelling is
    // SELinux's business, so a stand-in `setfiles` that accepts the list is on PATH.
    std::fs::write(
        root.join("etc/selinux/config"),
        "SELINUX=disabled\nSELINUXTYPE=targeted\n",
    )
    .expect("write");
    let bin = work.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::fs::write(bin.join("setfiles"), "#!/bin/sh\ncat >/dev/null\nexit 0\n").expect("write");
    std::fs::set_permissions(bin.join("setfiles"), std::fs::Permissions::from_mode(0o755))
        .expect("chmod");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for stage in ["fetch-offline", "files"] {
        let out = Command::new(tool("IGNITION_BIN"))
            .args(["-platform", "file", "-stage", stage, "-root", s(&root)])
            .args(["-log-to-stdout", "-config-cache"])
            .arg(work.join("config-cache.json"))
            .arg("-state-file")
            .arg(work.join("state"))
            .env("IGNITION_CONFIG_FILE", config)
            .env("PATH", &path)
            .output()
            .expect("ignition runs");
        assert_ran(&out, &format!("ignition -stage {stage}"));
    }
    root
}

/// Lays a render down under `root` by running the shipped bootkube stage
/// (contrib/bootkube/ccm-bootstrap.sh) on an asset folder laid out as the installer lays out
/// /opt/openshift. `bootkube_podman_run` (which the stage takes from bootkube.sh when defined)
/// runs this build's binary with the container's /assets mapped to the asset folder:
/// tests/it/bootkube.rs proves that the image renders byte for byte what the binary renders.
/// Returns the asset folder's `ccm-bootstrap/` render.
fn apply_as_the_stage(platform: &str, manifests: bool, work: &Path) -> (PathBuf, PathBuf) {
    let assets = work.join("assets");
    let root = work.join("stage-root");
    for dir in ["manifests", "openshift"] {
        std::fs::create_dir_all(assets.join(dir)).expect("mkdir");
    }
    std::fs::create_dir_all(&root).expect("mkdir");
    for (from, to) in [
        (
            conformance(&format!("{platform}/infrastructure.yaml")),
            "manifests/cluster-infrastructure-02-config.yml",
        ),
        (
            conformance(&format!("{platform}/cloud-provider-config.yaml")),
            "manifests/cloud-provider-config.yaml",
        ),
        (
            conformance("network.yaml"),
            "manifests/cluster-network-02-config.yml",
        ),
        (
            credentials(platform),
            "openshift/99_cloud-creds-secret.yaml",
        ),
    ] {
        std::fs::copy(&from, assets.join(to)).expect("copy");
    }
    let shim = r#"
bootkube_podman_run() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --rm|--quiet) shift ;;
            --name|--user|--volume|--net) shift 2 ;;
            -*) shift ;;
            *) break ;;
        esac
    done
    shift # the image
    local args=() arg
    for arg in "$@"; do args+=("${arg//\/assets/$PWD}"); done
    "$CCM_RENDER_BIN" "${args[@]}"
}
. "$STAGE"
"#;
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", shim])
        .current_dir(&assets)
        .env(
            "STAGE",
            common::root().join("contrib/bootkube/ccm-bootstrap.sh"),
        )
        .env("CCM_RENDER_BIN", crate::common::binary())
        .env("CCM_RENDER_IMAGE", "localhost/ccm-render:test")
        .env("CCM_RENDER_IMAGES", conformance("images.json"))
        .env("CCM_BOOTSTRAP_ROOT", &root)
        .env(
            "CCM_BOOTSTRAP_MANIFESTS",
            if manifests { "true" } else { "false" },
        )
        .output()
        .expect("bash runs");
    assert_ran(&out, &format!("{platform}: the stage failed"));
    (root, assets)
}

fn validate(config: &Path) {
    let out = Command::new(tool("IGNITION_VALIDATE"))
        .arg(config)
        .output()
        .expect("ignition-validate runs");
    assert_ran(&out, &format!("ignition-validate {}", config.display()));
}

/// Fails with `what` and the tool's stdout and stderr unless it succeeded.
fn assert_ran(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        stderr(out)
    );
}

fn files_of(config: &Path) -> Vec<Value> {
    let value: Value = serde_json::from_slice(&std::fs::read(config).expect("read")).expect("JSON");
    value
        .pointer("/storage/files")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

#[test]
#[ignore = "needs Ignition: run scripts/test"]
fn every_platforms_fragment_validates_and_ignition_lays_down_the_stages_tree() {
    for platform in PLATFORMS {
        for manifests in [false, true] {
            let work = tempfile::tempdir().expect("tempdir");
            let (stage_root, assets) = apply_as_the_stage(platform, manifests, work.path());
            let by_stage = node_tree(&stage_root);
            // The Ignition config of the same render: the same inputs, from the asset folder.
            let config = work.path().join("ccm.ign");
            let mut extra = vec!["--ignition", s(&config)];
            if manifests {
                extra.push("--ignition-manifests");
            }
            render(platform, &work.path().join("out"), &extra);
            validate(&config);
            let by_ignition = node_tree(&apply_with_ignition(&config, work.path()));
            assert_eq!(
                read_tree(&work.path().join("out")),
                read_tree(&assets.join("ccm-bootstrap")),
                "{platform}: the stage rendered the same tree"
            );
            let files = by_stage.values().filter(|(_, b)| b.is_some()).count();
            assert!(files > 0, "{platform}: nothing placed");
            assert_eq!(
                by_ignition.keys().collect::<Vec<_>>(),
                by_stage.keys().collect::<Vec<_>>(),
                "{platform} manifests={manifests}"
            );
            for (path, (mode, bytes)) in &by_stage {
                let (ign_mode, ign_bytes) = &by_ignition[path];
                assert_eq!(ign_mode, mode, "{platform}: {path}");
                assert!(ign_bytes == bytes, "{platform}: {path} differs");
            }
            // Secrets are owner-only in the fragment and on the node.
            for (path, (mode, bytes)) in &by_ignition {
                if path.starts_with("etc/kubernetes/bootstrap-secrets") {
                    let want = if bytes.is_some() { 0o600 } else { 0o700 };
                    assert_eq!(*mode, want, "{platform}: {path}");
                }
            }
            for file in files_of(&config) {
                let path = file["path"].as_str().expect("path");
                if path.starts_with("/etc/kubernetes/bootstrap-secrets/") {
                    assert_eq!(file["mode"], 0o600, "{platform}: {path}");
                }
            }
            let has_manifests = by_ignition.keys().any(|p| p.starts_with("opt/"));
            assert_eq!(has_manifests, manifests, "{platform}");
        }
    }
}

#[test]
#[ignore = "needs Ignition: run scripts/test"]
fn every_offered_version_that_ignition_knows_validates() {
    // Debian's Ignition (2.14) knows specs up to 3.3.0; 3.4.0 differs from the others only in
    // `ignition.version` (a unit test in src/output/ignition/mod.rs proves that).
    for version in ["3.1.0", "3.2.0", "3.3.0"] {
        let work = tempfile::tempdir().expect("tempdir");
        let config = work.path().join("ccm.ign");
        render(
            "openstack",
            &work.path().join("out"),
            &[
                "--ignition",
                s(&config),
                "--ignition-version",
                version,
                "--ignition-manifests",
            ],
        );
        validate(&config);
        let text = std::fs::read_to_string(&config).expect("read");
        assert!(
            text.contains(&format!("\"version\": \"{version}\"")),
            "{version}"
        );
    }
}

#[test]
fn without_dest_dir_only_the_ignition_file_is_written_0600_and_byte_identical_each_time() {
    let work = tempfile::tempdir().expect("tempdir");
    let config = work.path().join("ccm.ign");
    let args = [
        "render",
        "--infrastructure",
        &conformance("azure/infrastructure.yaml")
            .display()
            .to_string(),
        "--cloud-config",
        &conformance("azure/cloud-provider-config.yaml")
            .display()
            .to_string(),
        "--images",
        &conformance("images.json").display().to_string(),
        "--credentials",
        &credentials("azure").display().to_string(),
        "--ignition",
        s(&config),
    ]
    .map(String::from);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ccm_render(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_dir(work.path()).expect("dir").count(),
        1,
        "only the config"
    );
    assert_eq!(mode(&config), 0o600);
    let first = std::fs::read(&config).expect("read");
    std::fs::remove_file(&config).expect("rm");
    assert!(ccm_render(&args).status.success());
    assert_eq!(
        std::fs::read(&config).expect("read"),
        first,
        "deterministic"
    );
    let again = ccm_render(&args);
    assert!(stderr(&again).contains("unchanged"), "{}", stderr(&again));
    let paths: Vec<String> = files_of(&config)
        .iter()
        .map(|f| f["path"].as_str().expect("path").to_string())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted, "sorted paths");
}

#[test]
fn check_and_diff_compare_with_the_existing_file_by_node_path_and_never_show_a_secret() {
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    let config = work.path().join("ccm.ign");
    let ign = ["--ignition", s(&config)];
    render("azure", &dest, &ign);
    let check = |extra: &[&str], creds: &Path| {
        let mut args = vec!["--credentials", s(creds)];
        args.extend_from_slice(&ign);
        args.extend_from_slice(extra);
        render_conformance("azure", "infrastructure.yaml", &args, &dest)
    };
    let clean = check(&["--check"], &credentials("azure"));
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert!(clean.stdout.is_empty());

    // Another client secret: the secret file changes, and neither value is printed.
    let original = std::fs::read_to_string(credentials("azure")).expect("read");
    let old_secret = secret_value(&original);
    let new_secret = "bmV3LWNsaWVudC1zZWNyZXQtdmFsdWU=";
    let other = work.path().join("creds.yaml");
    std::fs::write(&other, original.replace(&old_secret, new_secret)).expect("write");
    let before = std::fs::read(&config).expect("read");
    let listed = check(&["--check"], &other);
    assert_eq!(listed.status.code(), Some(1), "{}", stderr(&listed));
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(
        text.contains("changed  etc/kubernetes/bootstrap-secrets/cloud.conf"),
        "{text}"
    );
    let diff = check(&["--diff"], &other);
    assert_eq!(diff.status.code(), Some(1));
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(
        text.contains("contents redacted: files under /etc/kubernetes/bootstrap-secrets/"),
        "{text}"
    );
    for value in [old_secret.as_str(), new_secret, "new-client-secret-value"] {
        assert!(!text.contains(value), "secret printed: {text}");
        assert!(!stderr(&diff).contains(value));
    }
    assert_eq!(std::fs::read(&config).expect("read"), before, "written");

    // Asking for the manifests adds files; the JSON lists them by node path.
    let json = check(
        &["--check", "--ignition-manifests", "--output", "json"],
        &credentials("azure"),
    );
    assert_eq!(json.status.code(), Some(1));
    let summary: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let files = summary["ignition"]["files"].as_array().expect("files");
    assert!(files.iter().any(|f| {
        f["status"] == "added"
            && f["path"]
                .as_str()
                .is_some_and(|p| p.starts_with("/opt/openshift/manifests/"))
    }));
    assert!(files.iter().any(|f| f["status"] == "unchanged"
        && f["path"] == "/etc/kubernetes/bootstrap-secrets/cloud.conf"
        && f["mode"] == "0600"));
    assert_eq!(summary["ignition"]["dryRun"], true);
    assert_eq!(summary["ignition"]["version"], "3.2.0");

    // Another version only: the config itself changes.
    let version = check(
        &["--check", "--ignition-version", "3.3.0"],
        &credentials("azure"),
    );
    assert_eq!(version.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&version.stdout).contains("Ignition version 3.2.0 -> 3.3.0"),
        "{}",
        String::from_utf8_lossy(&version.stdout)
    );
}

/// The base64 `azure_client_secret` of the Azure credentials Secret.
fn secret_value(text: &str) -> String {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("azure_client_secret:"))
        .expect("azure_client_secret")
        .trim()
        .trim_matches('"')
        .to_string()
}

#[test]
fn run_with_output_json_lists_the_ignition_paths() {
    let work = tempfile::tempdir().expect("tempdir");
    let config = work.path().join("ccm.ign");
    let out = render(
        "gcp",
        &work.path().join("out"),
        &["--ignition", s(&config), "--output", "json"],
    );
    let summary: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let ignition = &summary["ignition"];
    assert_eq!(ignition["changed"], true);
    let paths: Vec<&str> = ignition["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert!(paths.contains(&"/etc/kubernetes/bootstrap-secrets/service_account.json"));
    assert!(paths.contains(&"/etc/kubernetes/bootstrap-configs/cloud.conf"));
    assert!(
        paths
            .iter()
            .any(|p| p.starts_with("/etc/kubernetes/manifests/"))
    );
}

#[test]
fn a_bad_or_unwritable_ignition_path_is_exit_2_and_nothing_is_written() {
    let work = tempfile::tempdir().expect("tempdir");
    let file = work.path().join("file");
    std::fs::write(&file, "mine\n").expect("write");
    let folder = work.path().join("folder");
    std::fs::create_dir(&folder).expect("mkdir");
    let link = work.path().join("link.ign");
    std::os::unix::fs::symlink(&file, &link).expect("link");
    for (path, message) in [
        (work.path().join("missing/ccm.ign"), "does not exist"),
        (file.join("ccm.ign"), "is not a directory"),
        (folder.clone(), "is a directory"),
        (link.clone(), "is a symbolic link"),
        // /proc refuses new files even to root.
        (
            PathBuf::from("/proc/ccm-render.ign"),
            "creating a temporary file in /proc",
        ),
    ] {
        let dest = work.path().join("out");
        std::fs::create_dir_all(&dest).expect("mkdir");
        std::fs::write(dest.join("keep"), "x").expect("write");
        let err = assert_refused_untouched(
            &dest,
            || {
                let creds = credentials("azure");
                render_conformance(
                    "azure",
                    "infrastructure.yaml",
                    &["--credentials", s(&creds), "--ignition", s(&path)],
                    &dest,
                )
            },
            message,
        );
        assert!(err.contains("--ignition"), "{err}");
        assert_eq!(std::fs::read(&file).expect("kept"), b"mine\n");
        assert!(!work.path().join("missing").exists());
    }
}

#[test]
fn neither_dest_dir_nor_ignition_is_a_usage_error() {
    let infra = conformance("aws/infrastructure.yaml");
    let images = conformance("images.json");
    let out = ccm_render(&[
        "render",
        "--infrastructure",
        s(&infra),
        "--images",
        s(&images),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--dest-dir"), "{}", stderr(&out));
    let out = ccm_render(&[
        "render",
        "--infrastructure",
        s(&infra),
        "--images",
        s(&images),
        "--dest-dir",
        "x",
        "--ignition-manifests",
    ]);
    assert_eq!(out.status.code(), Some(2), "needs --ignition");
}

#[test]
fn placements_prints_the_map_and_every_file_of_a_render() {
    let map = ccm_render(&["placements"]);
    assert!(map.status.success());
    assert_eq!(
        String::from_utf8_lossy(&map.stdout),
        "config /etc/kubernetes/bootstrap-configs 0644 0755\n\
         secrets /etc/kubernetes/bootstrap-secrets 0600 0700\n\
         bootstrap /etc/kubernetes/manifests 0644 0755\n"
    );
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    render("openstack", &dest, &[]);
    let files = ccm_render(&["placements", "--dest-dir", s(&dest), "--output", "json"]);
    assert!(files.status.success(), "{}", stderr(&files));
    let summary: Value = serde_json::from_slice(&files.stdout).expect("JSON");
    let placed = summary["files"].as_array().expect("files");
    assert_eq!(placed.first().expect("some")["source"], "config/cloud.conf");
    assert_eq!(
        placed.last().expect("some")["target"]
            .as_str()
            .map(|t| t.starts_with("/etc/kubernetes/manifests/")),
        Some(true),
        "pods last"
    );
    assert!(placed.iter().any(|p| p["source"] == "secrets/clouds.yaml"
        && p["target"] == "/etc/kubernetes/bootstrap-secrets/clouds.yaml"
        && p["mode"] == "0600"
        && p["dirMode"] == "0700"));
    assert!(placed.iter().all(|p| {
        !p["source"]
            .as_str()
            .unwrap_or_default()
            .starts_with("manifests/")
    }));

    // A leftover temporary file is not part of the render; a link is refused, and so is a
    // missing directory.
    std::fs::write(dest.join("config/.ccm-render-tmp-x"), "x").expect("write");
    let lines = ccm_render(&["placements", "--dest-dir", s(&dest)]);
    assert!(!String::from_utf8_lossy(&lines.stdout).contains(".ccm-render"));
    std::os::unix::fs::symlink("/etc/passwd", dest.join("config/passwd")).expect("link");
    let refused = ccm_render(&["placements", "--dest-dir", s(&dest)]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).starts_with("error: --dest-dir: "),
        "{}",
        stderr(&refused)
    );
    assert!(stderr(&refused).contains("is not a regular file"));
    let missing = ccm_render(&["placements", "--dest-dir", s(&work.path().join("none"))]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn the_readme_table_is_the_placement_map() {
    let readme = std::fs::read_to_string(root().join("docs/bootstrap-and-image.md"))
        .expect("docs/bootstrap-and-image.md");
    assert!(
        readme.contains(&ccm_render::output::placement::markdown_table()),
        "docs/bootstrap-and-image.md's placement table differs from src/output/placement MAP; it should read:\n{}",
        ccm_render::output::placement::markdown_table()
    );
}

/// The `sh` blocks of the "Embedding in bootstrap.ign" section of docs/ignition.md.
fn readme_embedding_commands() -> Vec<String> {
    let readme =
        std::fs::read_to_string(root().join("docs/ignition.md")).expect("docs/ignition.md");
    let section = readme
        .split("## Embedding in bootstrap.ign")
        .nth(1)
        .expect("section")
        .split("\n## ")
        .next()
        .expect("section text");
    section
        .split("```sh\n")
        .skip(1)
        .map(|block| block.split("```").next().expect("block").to_string())
        .collect()
}

#[test]
#[ignore = "needs Ignition: run scripts/test"]
fn the_readmes_embedding_commands_give_a_bootstrap_ign_that_lays_down_the_render() {
    let commands = readme_embedding_commands();
    assert_eq!(commands.len(), 2, "{commands:?}");
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    render(
        "azure",
        &dest,
        &["--ignition", s(&work.path().join("ccm-bootstrap.ign"))],
    );
    let alone = node_tree(&apply_with_ignition(
        &work.path().join("ccm-bootstrap.ign"),
        &work.path().join("alone"),
    ));
    // A stand-in for the installer's bootstrap.ign: its own file, unit, and a folder the
    // fragment declares too.
    std::fs::write(
        work.path().join("bootstrap.ign"),
        r#"{"ignition": {"version": "3.2.0"},
            "storage": {"files": [{"path": "/opt/openshift/other.txt", "mode": 420,
                                   "contents": {"source": "data:,installer"}}],
                        "directories": [{"path": "/etc/kubernetes/manifests", "mode": 493}]},
            "systemd": {"units": [{"name": "bootkube.service", "enabled": true,
                                   "contents": "[Unit]\nDescription=x\n[Install]\nWantedBy=multi-user.target\n"}]}}"#,
    )
    .expect("write");
    for (index, command) in commands.iter().enumerate() {
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", command])
            .current_dir(work.path())
            .output()
            .expect("bash runs");
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        let merged = work.path().join("bootstrap-with-ccm.ign");
        validate(&merged);
        let run = work.path().join(format!("run{index}"));
        std::fs::create_dir_all(&run).expect("mkdir");
        let node = apply_with_ignition(&merged, &run);
        assert_eq!(node_tree(&node), alone, "{command}");
        assert_eq!(
            std::fs::read(node.join("opt/openshift/other.txt")).expect("installer's file"),
            b"installer"
        );
        std::fs::remove_file(&merged).expect("rm");
    }
}

#[test]
fn check_against_a_file_that_is_not_an_ignition_config_is_exit_2_and_a_write_replaces_it() {
    let work = tempfile::tempdir().expect("tempdir");
    let dest = work.path().join("out");
    let config = work.path().join("ccm.ign");
    std::fs::write(&config, "not json\n").expect("write");
    let creds = credentials("aws");
    let run = |extra: &[&str]| {
        let mut args = vec!["--credentials", s(&creds), "--ignition", s(&config)];
        args.extend_from_slice(extra);
        render_conformance("aws", "infrastructure.yaml", &args, &dest)
    };
    std::fs::create_dir_all(&dest).expect("mkdir");
    assert_refused_untouched(&dest, || run(&["--check"]), "not an Ignition config");
    assert_eq!(std::fs::read(&config).expect("kept"), b"not json\n");
    assert!(run(&[]).status.success());
    assert!(
        std::fs::read_to_string(&config)
            .expect("read")
            .contains("\"3.2.0\"")
    );
    assert_eq!(mode(&config), 0o600);
}

#[test]
fn diff_against_a_whole_bootstrap_ign_shows_no_file_ccm_render_does_not_write() {
    let work = tempfile::tempdir().expect("tempdir");
    let config = work.path().join("bootstrap.ign");
    // A key that is base64 of a PEM block, as the installer embeds TLS keys.
    let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END RSA PRIVATE KEY-----\n";
    let source = format!(
        "data:;base64,{}",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, key)
    );
    std::fs::write(
        &config,
        serde_json::to_vec(&serde_json::json!({
            "ignition": {"version": "3.2.0"},
            "storage": {"files": [{"path": "/opt/openshift/tls/kube-apiserver.key",
                                   "mode": 384, "contents": {"source": source}}]}
        }))
        .expect("JSON"),
    )
    .expect("write");
    let creds = credentials("aws");
    let out = render_conformance(
        "aws",
        "infrastructure.yaml",
        &[
            "--credentials",
            s(&creds),
            "--ignition",
            s(&config),
            "--diff",
        ],
        &work.path().join("out"),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("diff --git a/opt/openshift/tls/kube-apiserver.key"),
        "{text}"
    );
    assert!(
        text.contains("contents redacted: not a path ccm-render writes"),
        "{text}"
    );
    assert!(
        !text.contains("PRIVATE KEY") && !text.contains("MIIEvQ"),
        "{text}"
    );
    // The pods' diffs are shown.
    assert!(text.contains("+++ b/etc/kubernetes/manifests/"), "{text}");
}

#[test]
fn when_writing_dest_dir_fails_the_ignition_file_is_put_back() {
    let work = tempfile::tempdir().expect("tempdir");
    let config = work.path().join("ccm.ign");
    let creds = credentials("azure");
    // /proc refuses new folders even to root: the tree write fails after the config's.
    let dest = Path::new("/proc/ccm-render-test/out");
    let run = || {
        render_conformance(
            "azure",
            "infrastructure.yaml",
            &["--credentials", s(&creds), "--ignition", s(&config)],
            dest,
        )
    };
    let out = run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!config.exists(), "a new config is removed again");
    std::fs::write(&config, "old\n").expect("write");
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let out = run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read(&config).expect("read"), b"old\n");
    assert_eq!(mode(&config), 0o640);
}
