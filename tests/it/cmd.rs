//! The command line as users see it, pinned by snapshots in tests/snapshots/cmd/: every
//! subcommand, every exit status, `--check`/`--diff`/`--prune` on clean, changed, missing and
//! extra files, redaction, colour, and the JSON outputs.
//!
//! After an intended change, regenerate every snapshot (and the other golden files) with
//!   CCM_RENDER_REGENERATE=1 cargo test
//! and review them with `git diff tests/snapshots testdata/golden`. `[DEST]` in a snapshot stands
//! for the temporary output directory, `[..]` for any text.

use crate::common;

use common::{PLATFORMS, conformance, read_tree, root};
use serde_json::Value;
use snapbox::cmd::Command;
use snapbox::{Assert, assert::Action, file};
use std::path::{Path, PathBuf};

/// Snapshot checks that overwrite instead with CCM_RENDER_REGENERATE set (or SNAPSHOTS=overwrite).
fn assert_config(dest: Option<&Path>) -> Assert {
    let action = if std::env::var_os("CCM_RENDER_REGENERATE").is_some() {
        Action::Overwrite
    } else {
        Action::with_env_var("SNAPSHOTS").unwrap_or_default()
    };
    let mut redactions = snapbox::Redactions::new();
    if let Some(dest) = dest {
        redactions
            .insert("[DEST]", dest.display().to_string())
            .expect("placeholder");
    }
    // normalize_paths(false): the help's shell line continuations are backslashes, not paths.
    Assert::new()
        .action(action)
        .redact_with(redactions)
        .normalize_paths(false)
}

/// The binary, run from the repository root (so inputs are named as in the README) with a
/// fixed terminal width and without NO_COLOR from the caller's environment.
fn ccm_render(dest: Option<&Path>) -> Command {
    Command::new(crate::common::binary())
        .with_assert(assert_config(dest))
        .current_dir(root())
        .env("COLUMNS", "100")
        .env_remove("NO_COLOR")
}

/// `render` of a conformance case (HA) into `dest`, inputs named relative to the repository.
fn render_args(platform: &str, dest: &Path) -> Vec<String> {
    let case = format!("testdata/conformance/{platform}");
    vec![
        "render".into(),
        "--infrastructure".into(),
        format!("{case}/infrastructure.yaml"),
        "--images".into(),
        "testdata/conformance/images.json".into(),
        "--cloud-config".into(),
        format!("{case}/cloud-provider-config.yaml"),
        "--network".into(),
        "testdata/conformance/network.yaml".into(),
        "--dest-dir".into(),
        dest.display().to_string(),
    ]
}

fn with(mut args: Vec<String>, extra: &[&str]) -> Vec<String> {
    args.extend(extra.iter().map(ToString::to_string));
    args
}

/// A temporary directory holding the AWS render, written by the binary.
fn rendered(platform: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    ccm_render(Some(&dest))
        .args(render_args(platform, &dest))
        .assert()
        .success();
    (dir, dest)
}

fn stdout_of(command: Command) -> (Option<i32>, String, String) {
    let out = command.output().expect("runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("utf8"),
        String::from_utf8(out.stderr).expect("utf8"),
    )
}

// ---- help, version, usage errors -------------------------------------------------------------

#[test]
fn help_of_every_command_shows_real_examples() {
    for (args, snapshot) in [
        (vec!["--help"], file!["../snapshots/cmd/help.txt"]),
        (
            vec!["render", "--help"],
            file!["../snapshots/cmd/render-help.txt"],
        ),
        (
            vec!["platforms", "--help"],
            file!["../snapshots/cmd/platforms-help.txt"],
        ),
        (
            vec!["matrix", "--help"],
            file!["../snapshots/cmd/matrix-help.txt"],
        ),
        (
            vec!["completions", "--help"],
            file!["../snapshots/cmd/completions-help.txt"],
        ),
        (
            vec!["releases", "--help"],
            file!["../snapshots/cmd/releases-help.txt"],
        ),
        (
            vec!["provider", "--help"],
            file!["../snapshots/cmd/provider-help.txt"],
        ),
        (
            vec!["provider", "new", "--help"],
            file!["../snapshots/cmd/provider-new-help.txt"],
        ),
        (
            vec!["provider", "check", "--help"],
            file!["../snapshots/cmd/provider-check-help.txt"],
        ),
    ] {
        ccm_render(None)
            .args(&args)
            .assert()
            .code(0)
            .stdout_eq(snapshot)
            .stderr_eq("");
    }
    let (_, render_help, _) = stdout_of(ccm_render(None).args(["render", "--help"]));
    for example in ["bootkube.sh", "--diff", "CI:", "--check", "--output json"] {
        assert!(render_help.contains(example), "{example}");
    }
}

#[test]
fn version_is_exit_0() {
    ccm_render(None)
        .arg("--version")
        .assert()
        .code(0)
        .stdout_eq(format!("ccm-render {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn usage_errors_are_exit_2_and_say_what_to_do() {
    ccm_render(None)
        .arg("rendr")
        .assert()
        .code(2)
        .stdout_eq("")
        .stderr_eq(file!["../snapshots/cmd/unknown-subcommand.txt"]);
    ccm_render(None)
        .args(["render", "--images", "x.json"])
        .assert()
        .code(2)
        .stderr_eq(file!["../snapshots/cmd/render-missing-flags.txt"]);
    ccm_render(None)
        .args([
            "render",
            "--infrastructure",
            "i",
            "--images",
            "x",
            "--dest-dir",
            "d",
            "--diff",
            "--output",
            "json",
        ])
        .assert()
        .code(2)
        .stderr_eq(file!["../snapshots/cmd/diff-with-json.txt"]);
    ccm_render(None)
        .args(["completions", "tcsh"])
        .assert()
        .code(2);
}

// ---- platforms and completions ---------------------------------------------------------------

#[test]
fn platforms_table_and_json() {
    ccm_render(None)
        .arg("platforms")
        .assert()
        .code(0)
        .stdout_eq(file!["../snapshots/cmd/platforms.txt"]);
    ccm_render(None)
        .args(["platforms", "--output", "json"])
        .assert()
        .code(0)
        .stdout_eq(file!["../snapshots/cmd/platforms.json": Text]);
    let (_, text, _) = stdout_of(ccm_render(None).args(["platforms", "--output", "json"]));
    let json: Value = serde_json::from_str(&text).expect("JSON");
    let rows = json["platforms"].as_array().expect("platforms");
    for platform in ccm_catalogue::platform::Platform::ALL {
        assert!(
            rows.iter().any(|r| r["platform"] == platform.as_str()),
            "{platform}"
        );
    }
    let providers: Vec<&str> = rows.iter().filter_map(|r| r["provider"].as_str()).collect();
    for platform in PLATFORMS {
        assert!(providers.contains(&platform), "{platform}");
    }
}

#[test]
fn releases_table_and_json() {
    ccm_render(None)
        .arg("releases")
        .assert()
        .code(0)
        .stderr_eq("")
        .stdout_eq(file!["../snapshots/cmd/releases.txt"]);
    ccm_render(None)
        .args(["releases", "--output", "json"])
        .assert()
        .code(0)
        .stdout_eq(file!["../snapshots/cmd/releases.json": Text]);
}

#[test]
fn completions_for_every_shell_are_the_committed_files() {
    for (shell, file) in ccm_render::commands::cli::COMPLETION_FILES {
        let committed = std::fs::read(root().join("completions").join(file)).expect("committed");
        ccm_render(None)
            .args(["completions", &shell.to_string()])
            .assert()
            .code(0)
            .stdout_eq(committed);
    }
}

// ---- render, --check, --diff, --prune --------------------------------------------------------

#[test]
fn render_writes_and_says_so_on_stderr() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    ccm_render(Some(&dest))
        .args(render_args("aws", &dest))
        .assert()
        .code(0)
        .stdout_eq("")
        .stderr_eq(file!["../snapshots/cmd/render-aws.txt"]);
}

#[test]
fn render_output_json_lists_every_file_with_its_object() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--output", "json"]))
        .assert()
        .code(0)
        .stdout_eq(file!["../snapshots/cmd/render-aws.json": Text]);
    // A rerun reports every file unchanged.
    let (code, text, _) = stdout_of(
        ccm_render(Some(&dest)).args(with(render_args("aws", &dest), &["--output", "json"])),
    );
    assert_eq!(code, Some(0));
    let json: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json["changed"], false);
    assert_eq!(json["dryRun"], false);
    let files = json["files"].as_array().expect("files");
    assert_eq!(files.len(), read_tree(&dest).len());
    assert!(files.iter().all(|f| f["status"] == "unchanged"));
}

#[test]
fn check_on_a_missing_dir_lists_everything_and_creates_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--check"]))
        .assert()
        .code(1)
        .stdout_eq(file!["../snapshots/cmd/check-missing-dir.txt"])
        .stderr_eq(file!["../snapshots/cmd/check-missing-dir.stderr.txt"]);
    assert!(!dest.exists(), "--check created {}", dest.display());
}

#[test]
fn check_and_diff_on_a_clean_dir_are_exit_0_and_silent_on_stdout() {
    let (_dir, dest) = rendered("aws");
    let before = read_tree(&dest);
    for flag in ["--check", "--diff"] {
        ccm_render(Some(&dest))
            .args(with(render_args("aws", &dest), &[flag, "--prune"]))
            .assert()
            .code(0)
            .stdout_eq("")
            .stderr_eq("ccm-render: [DEST] is up to date for OpenShift 4.23 (8 files)\n");
    }
    assert_eq!(read_tree(&dest), before);
}

/// A render of AWS, then: a changed manifest, a changed mode, a missing manifest and an extra one.
fn drifted() -> (tempfile::TempDir, PathBuf) {
    use std::os::unix::fs::PermissionsExt as _;
    let (dir, dest) = rendered("aws");
    let deployment = dest.join("manifests/deployment-aws-cloud-controller-manager.yaml");
    let text = std::fs::read_to_string(&deployment).expect("read");
    std::fs::write(&deployment, text.replace("replicas: 2", "replicas: 3")).expect("write");
    std::fs::set_permissions(
        dest.join("config/cloud.conf"),
        std::fs::Permissions::from_mode(0o644),
    )
    .expect("chmod");
    std::fs::remove_file(dest.join("manifests/service-aws-cloud-controller-manager.yaml"))
        .expect("rm");
    std::fs::write(
        dest.join("manifests/configmap-old.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n",
    )
    .expect("extra");
    (dir, dest)
}

#[test]
fn check_lists_changed_missing_and_mode_changes_and_extra_files_only_with_prune() {
    let (_dir, dest) = drifted();
    let before = read_tree(&dest);
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--check"]))
        .assert()
        .code(1)
        .stdout_eq(file!["../snapshots/cmd/check-drift.txt"])
        .stderr_eq(file!["../snapshots/cmd/check-drift.stderr.txt"]);
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--check", "--prune"]))
        .assert()
        .code(1)
        .stdout_eq(file!["../snapshots/cmd/check-drift-prune.txt"]);
    assert_eq!(read_tree(&dest), before, "--check changed the directory");
}

#[test]
fn an_extra_file_alone_is_exit_0_without_prune_and_1_with_it() {
    let (_dir, dest) = rendered("aws");
    std::fs::write(dest.join("manifests/extra.yaml"), "x: 1\n").expect("extra");
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--check"]))
        .assert()
        .code(0)
        .stdout_eq("")
        .stderr_eq(file!["../snapshots/cmd/check-extra.stderr.txt"]);
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--diff", "--prune"]))
        .assert()
        .code(1)
        .stdout_eq(file!["../snapshots/cmd/diff-extra-prune.txt"]);
}

#[test]
fn check_output_json_is_a_dry_run_summary() {
    let (_dir, dest) = drifted();
    let (code, text, _) = stdout_of(ccm_render(Some(&dest)).args(with(
        render_args("aws", &dest),
        &["--check", "--prune", "--output", "json"],
    )));
    assert_eq!(code, Some(1));
    let json: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json["dryRun"], true);
    assert_eq!(json["changed"], true);
    let status = |path: &str| {
        json["files"]
            .as_array()
            .expect("files")
            .iter()
            .find(|f| f["path"] == path)
            .map(|f| f["status"].clone())
    };
    assert_eq!(status("config/cloud.conf"), Some("changed".into()));
    assert_eq!(
        status("manifests/service-aws-cloud-controller-manager.yaml"),
        Some("added".into())
    );
    assert_eq!(
        status("manifests/configmap-old.yaml"),
        Some("removed".into())
    );
    assert_eq!(
        status("bootstrap/pod-aws-bootstrap-cloud-controller-manager.yaml"),
        Some("unchanged".into())
    );
}

#[test]
fn diff_shows_every_change_plain_when_piped() {
    let (_dir, dest) = drifted();
    let before = read_tree(&dest);
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--diff", "--prune"]))
        .assert()
        .code(1)
        .stdout_eq(file!["../snapshots/cmd/diff-drift.txt"]);
    assert_eq!(read_tree(&dest), before, "--diff changed the directory");
}

#[test]
fn diff_colour_follows_color_and_no_color() {
    let (_dir, dest) = drifted();
    let run = |extra: &[&str], no_color: Option<&str>| {
        let mut command = ccm_render(Some(&dest)).args(with(render_args("aws", &dest), extra));
        if let Some(value) = no_color {
            command = command.env("NO_COLOR", value);
        }
        let (code, text, _) = stdout_of(command);
        assert_eq!(code, Some(1));
        text
    };
    let coloured = run(&["--diff", "--color", "always"], None);
    assert!(
        coloured.contains("\x1b[31m-  replicas: 3\x1b[0m"),
        "{coloured}"
    );
    assert!(
        coloured.contains("\x1b[32m+  replicas: 2\x1b[0m"),
        "{coloured}"
    );
    // Piped stdout is not a terminal: auto means plain, and NO_COLOR changes nothing there.
    for text in [
        run(&["--diff"], None),
        run(&["--diff", "--color", "auto"], Some("1")),
        run(&["--diff", "--color", "never"], None),
    ] {
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.contains("+  replicas: 2"), "{text}");
    }
    // The plain text is the coloured text without its escapes.
    let stripped = coloured
        .replace("\x1b[0m", "")
        .replace("\x1b[1m", "")
        .replace("\x1b[31m", "")
        .replace("\x1b[32m", "")
        .replace("\x1b[36m", "");
    assert_eq!(stripped, run(&["--diff"], None));
}

#[test]
fn prune_removes_what_the_render_no_longer_produces_and_keeps_foreign_files() {
    let (_dir, dest) = drifted();
    std::fs::write(dest.join("README"), "not ours\n").expect("foreign");
    std::fs::create_dir_all(dest.join("secrets")).expect("mkdir");
    std::fs::write(dest.join("secrets/clouds.yaml"), "password: x\n").expect("secret");
    ccm_render(Some(&dest))
        .args(render_args("aws", &dest))
        .assert()
        .code(0)
        .stderr_eq(file!["../snapshots/cmd/render-no-prune.stderr.txt"]);
    assert!(dest.join("manifests/configmap-old.yaml").exists());
    ccm_render(Some(&dest))
        .args(with(
            render_args("aws", &dest),
            &["--prune", "--output", "json"],
        ))
        .assert()
        .code(0)
        .stdout_eq(file!["../snapshots/cmd/render-prune.json": Text])
        .stderr_eq(file!["../snapshots/cmd/render-prune.stderr.txt"]);
    let tree = read_tree(&dest);
    assert!(!tree.contains_key("manifests/configmap-old.yaml"));
    assert!(
        !dest.join("secrets").exists(),
        "emptied secrets/ is removed"
    );
    assert!(tree.contains_key("README"));
    ccm_render(Some(&dest))
        .args(with(render_args("aws", &dest), &["--check", "--prune"]))
        .assert()
        .code(0);
}

// ---- redaction -------------------------------------------------------------------------------

#[test]
fn diff_never_prints_credentials_old_or_new() {
    // The new side: an Azure cloud config with a client secret, rendered into config/cloud.conf
    // and the cloud-conf ConfigMap.
    let dir = tempfile::tempdir().expect("tempdir");
    let cloud = dir.path().join("cloud-provider-config.yaml");
    let source =
        std::fs::read_to_string(conformance("azure/cloud-provider-config.yaml")).expect("source");
    std::fs::write(
        &cloud,
        source.replace(
            "\"aadClientSecret\": \"\"",
            "\"aadClientSecret\": \"NEW-hunter2\"",
        ),
    )
    .expect("write");
    let dest = dir.path().join("out");
    let mut args = render_args("azure", &dest);
    args[6] = cloud.display().to_string();
    ccm_render(Some(&dest)).args(&args).assert().success();
    assert!(
        String::from_utf8_lossy(&read_tree(&dest)["config/cloud.conf"]).contains("NEW-hunter2"),
        "the transform keeps the secret, so the diff has one to hide"
    );

    // The old side: the same files with another secret, a stale Secret manifest and a stale
    // credentials file.
    let conf = dest.join("config/cloud.conf");
    let text = std::fs::read_to_string(&conf).expect("read");
    std::fs::write(&conf, text.replace("NEW-hunter2", "OLD-hunter2")).expect("write");
    let cm = dest.join("manifests/configmap-cloud-conf.yaml");
    let text = std::fs::read_to_string(&cm).expect("read");
    std::fs::write(&cm, text.replace("NEW-hunter2", "OLD-hunter2")).expect("write");
    std::fs::write(
        dest.join("manifests/secret-azure-credentials.yaml"),
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: azure-credentials\n  namespace: kube-system\ndata:\n  azure_client_secret: T0xELWh1bnRlcjI=\nstringData:\n  plain: OLD-hunter2\n",
    )
    .expect("secret");
    std::fs::create_dir_all(dest.join("secrets")).expect("mkdir");
    std::fs::write(dest.join("secrets/cloud.conf"), "OLD-hunter2\n").expect("secret file");

    ccm_render(Some(&dest))
        .args(with(args.clone(), &["--diff", "--prune"]))
        .assert()
        .code(1)
        .stdout_eq(file!["../snapshots/cmd/diff-redacted.txt"]);
    let (_, text, errors) =
        stdout_of(ccm_render(Some(&dest)).args(with(args, &["--diff", "--prune"])));
    for secret in ["hunter2", "T0xELWh1bnRlcjI"] {
        assert!(!text.contains(secret), "{secret} printed:\n{text}");
        assert!(!errors.contains(secret), "{secret} printed:\n{errors}");
    }
    assert!(text.contains("contents redacted"), "{text}");
    assert!(text.contains("<redacted>"), "{text}");

    // Into an empty directory, only the new side holds the secret.
    let empty = dir.path().join("empty");
    let mut args = render_args("azure", &empty);
    args[6] = cloud.display().to_string();
    let (code, text, _) = stdout_of(ccm_render(Some(&empty)).args(with(args, &["--diff"])));
    assert_eq!(code, Some(1));
    assert!(!text.contains("hunter2"), "{text}");
    assert!(
        text.contains("+{\"cloud\":\"AzurePublicCloud\"")
            && text.contains("\"aadClientSecret\":\"<redacted>\""),
        "{text}"
    );
}

// ---- errors ----------------------------------------------------------------------------------

#[test]
fn check_with_bad_input_or_a_file_as_dest_is_exit_2_and_touches_nothing() {
    let (_dir, dest) = rendered("aws");
    let before = read_tree(&dest);
    let mut args = with(render_args("aws", &dest), &["--check"]);
    args[2] = "testdata/conformance/nonexistent.yaml".into();
    ccm_render(Some(&dest))
        .args(&args)
        .assert()
        .code(2)
        .stdout_eq("")
        .stderr_eq(file!["../snapshots/cmd/check-bad-input.txt"]);
    assert_eq!(read_tree(&dest), before);

    let file = dest.join("config/cloud.conf");
    ccm_render(Some(&file))
        .args(with(render_args("aws", &file), &["--diff"]))
        .assert()
        .code(2)
        .stderr_eq("error: --dest-dir [DEST]: exists and is not a directory\n");
}

#[test]
fn provider_new_then_check_succeeds_and_a_broken_folder_exits_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    ccm_render(Some(dir.path()))
        .args(["provider", "new", "acme", "--dir"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stdout_eq("")
        .stderr_eq(file!["../snapshots/cmd/provider-new.stderr.txt"]);
    let folder = dir.path().join("acme");
    ccm_render(Some(dir.path()))
        .args(["provider", "check"])
        .arg(&folder)
        .assert()
        .code(0)
        .stdout_eq(file!["../snapshots/cmd/provider-check.txt"])
        .stderr_eq("");
    // A second `new` never overwrites.
    ccm_render(Some(dir.path()))
        .args(["provider", "new", "acme", "--dir"])
        .arg(dir.path())
        .assert()
        .code(2);
    // An unknown field in the descriptor: exit 2, the file and the field named.
    let descriptor = folder.join("provider.yaml");
    let text = std::fs::read_to_string(&descriptor).expect("read");
    std::fs::write(
        &descriptor,
        text.replace("  cloudProvider:", "  cloudProvder:"),
    )
    .expect("write");
    ccm_render(Some(dir.path()))
        .args(["provider", "check"])
        .arg(&folder)
        .assert()
        .code(2)
        .stdout_eq("")
        .stderr_eq(file!["../snapshots/cmd/provider-check-broken.stderr.txt"]);
}
