//! Failure behaviour through the binary: the bad-input corpus of `testdata/bad/cases.yaml`, the
//! ways `--dest-dir` can be unusable, and unknown input fields. Every failure must exit 2 within
//! a second with a few lines naming the input and the problem, never panic, and leave a
//! pre-populated `--dest-dir` exactly as it was (contents, modes, links and folders).

use crate::common;

use common::*;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One entry of `testdata/bad/cases.yaml` (its header says what each field means).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    file: Option<String>,
    generate: Option<String>,
    flag: String,
    value: Option<String>,
    base: Option<String>,
    names: Option<String>,
    release: Option<String>,
    status: i32,
    message: String,
}

fn bad_dir() -> PathBuf {
    root().join("testdata/bad")
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(bad_dir().join("cases.yaml")).expect("cases.yaml");
    ccm_catalogue::yaml::from_str(&text).expect("cases.yaml is a list of cases")
}

/// The good inputs of a conformance case, as (flag, path) pairs; `hosted-cluster`: those of the
/// HostedCluster case `testdata/hosted-cluster/aws/release-minimal-flags`.
fn good_inputs(base: &str) -> Vec<(String, String)> {
    if base == "hosted-cluster" {
        let case = root().join("testdata/hosted-cluster/aws/release-minimal-flags");
        let path = |rel: &str| case.join(rel).display().to_string();
        return vec![
            ("--hosted-cluster".into(), path("hostedcluster.yaml")),
            ("--images".into(), path("image-references.yaml")),
        ];
    }
    let path = |rel: &str| conformance(rel).display().to_string();
    vec![
        (
            "--infrastructure".into(),
            path(&format!("{base}/infrastructure.yaml")),
        ),
        ("--images".into(), path("images.json")),
        (
            "--cloud-config".into(),
            path(&format!("{base}/cloud-provider-config.yaml")),
        ),
        ("--network".into(), path("network.yaml")),
    ]
}

fn render_args(inputs: &[(String, String)], dest: &Path) -> Vec<String> {
    let mut args = vec!["render".to_string()];
    for (flag, value) in inputs {
        args.push(format!("{flag}={value}"));
    }
    args.push(format!("--dest-dir={}", dest.display()));
    args
}

/// Runs the binary; returns its output and how long it took. The machine may be busy (tests
/// run in parallel, CI shares its cores), so a run slower than a second is repeated, up to
/// three times, and the fastest counts: work that grows with hostile input is slow every time.
fn run(args: &[String]) -> (std::process::Output, Duration) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut fastest = Duration::MAX;
    let mut tries = 0;
    loop {
        let started = Instant::now();
        let out = ccm_render(&args);
        fastest = fastest.min(started.elapsed());
        tries += 1;
        if fastest < Duration::from_secs(1) || tries == 3 {
            return (out, fastest);
        }
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy keeps the mode");
        }
    }
}

/// A --dest-dir as a rerun finds it: the output of a good render of `base`, one file edited
/// since, a stale manifest and a file that is not ccm-render's.
fn prepopulated_template(base: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let (out, _) = run(&render_args(&good_inputs(base), dir.path()));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let edited = std::fs::read_dir(dir.path().join("manifests"))
        .expect("manifests")
        .next()
        .expect("a manifest")
        .expect("entry")
        .path();
    std::fs::write(&edited, "edited: by hand\n").expect("edit");
    std::fs::write(dir.path().join("manifests/stale.yaml"), "stale: true\n").expect("write");
    std::fs::write(dir.path().join("NOTES"), "not ccm-render's\n").expect("write");
    dir
}

/// Checks the failure contract for one run and returns its stderr.
fn assert_failed_cleanly(
    what: &str,
    out: &std::process::Output,
    took: Duration,
    status: i32,
    names: &str,
    message: &str,
) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(status), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: panicked: {err}");
    assert!(took < Duration::from_secs(1), "{what}: took {took:?}");
    assert_eq!(
        err.lines().count(),
        1,
        "{what}: not one line on stderr: {err}"
    );
    // A context that repeats its cause (`x.yaml: x.yaml: …`) reads as a doubled name.
    let parts: Vec<&str> = err.trim_end().split(": ").collect();
    assert!(
        parts.windows(2).all(|pair| pair[0] != pair[1]),
        "{what}: says the same thing twice in a row: {err}"
    );
    assert!(
        err.starts_with(&format!("error: {names}")),
        "{what}: the first line does not name {names:?}: {err}"
    );
    assert!(
        err.contains(message),
        "{what}: expected {message:?} in {err}"
    );
    err
}

#[test]
fn every_corpus_case_exits_2_quickly_naming_the_input_and_leaves_dest_untouched() {
    let cases = cases();
    let generated = tempfile::tempdir().expect("tempdir");
    let mut templates: BTreeMap<String, tempfile::TempDir> = BTreeMap::new();
    for case in &cases {
        let base = case.base.as_deref().unwrap_or("aws");
        let template = templates
            .entry(base.to_string())
            .or_insert_with(|| prepopulated_template(base));
        let mut inputs = good_inputs(base);
        let (input, label) = match (&case.file, &case.value) {
            (Some(file), None) => {
                let path = match case.generate.as_deref() {
                    None => bad_dir().join(file),
                    Some("oversized") => oversized(&generated.path().join(file)),
                    Some(other) => panic!("{file}: unknown generator {other:?}"),
                };
                (path.display().to_string(), file.clone())
            }
            (None, Some(value)) => (value.clone(), format!("{} {value:?}", case.flag)),
            _ => panic!("{case:?}: give exactly one of file and value"),
        };
        // --install-config stands in for --infrastructure (clap refuses both).
        if case.flag == "--install-config" {
            inputs.retain(|(flag, _)| flag != "--infrastructure");
        }
        match inputs.iter_mut().find(|(flag, _)| *flag == case.flag) {
            Some(slot) => slot.1.clone_from(&input),
            None => inputs.push((case.flag.clone(), input.clone())),
        }
        if let Some(release) = &case.release {
            inputs.push(("--release".into(), release.clone()));
        }
        let dest = tempfile::tempdir().expect("tempdir");
        copy_tree(template.path(), dest.path());
        let before = snapshot(dest.path());
        let (out, took) = run(&render_args(&inputs, dest.path()));
        let names = case.names.clone().unwrap_or(input);
        assert_failed_cleanly(&label, &out, took, case.status, &names, &case.message);
        assert_eq!(snapshot(dest.path()), before, "{label}: --dest-dir changed");
    }
}

/// Writes a valid-looking Infrastructure padded past the 16 MiB input limit.
fn oversized(path: &Path) -> PathBuf {
    use std::io::Write as _;
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    let head = std::fs::read(conformance("aws/infrastructure.yaml")).expect("read");
    file.write_all(&head).expect("write");
    let line = format!("# {}\n", "x".repeat(1022));
    for _ in 0..=16 * 1024 {
        file.write_all(line.as_bytes()).expect("write");
    }
    file.flush().expect("flush");
    let len = std::fs::metadata(path).expect("written").len();
    assert!(len > ccm_render::inputs::MAX_INPUT_BYTES, "{len}");
    path.to_path_buf()
}

#[test]
fn every_file_in_the_corpus_has_a_case_and_every_case_a_file() {
    let cases = cases();
    let named: BTreeSet<&str> = cases
        .iter()
        .filter(|c| c.generate.is_none())
        .filter_map(|c| c.file.as_deref())
        .collect();
    let present: BTreeSet<String> = std::fs::read_dir(bad_dir())
        .expect("testdata/bad")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name != "cases.yaml")
        .collect();
    let present: BTreeSet<&str> = present.iter().map(String::as_str).collect();
    assert_eq!(named, present);
    let modes: BTreeSet<&str> = cases.iter().map(|c| c.flag.as_str()).collect();
    for flag in [
        "--infrastructure",
        "--install-config",
        "--images",
        "--cloud-config",
        "--proxy",
        "--network",
        "--feature-gate",
        "--apiserver",
        "--namespace",
        "--hosted-cluster",
        "--name",
    ] {
        assert!(modes.contains(flag), "no case for {flag}");
    }
}

fn aws_args(dest: &Path) -> Vec<String> {
    render_args(&good_inputs("aws"), dest)
}

#[test]
fn dest_dir_that_is_a_file_or_below_one_is_refused_before_reading_anything() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("file");
    std::fs::write(&file, "mine\n").expect("write");
    for dest in [file.clone(), file.join("out")] {
        let (out, took) = run(&aws_args(&dest));
        assert_failed_cleanly(
            "dest is a file",
            &out,
            took,
            2,
            &format!("--dest-dir {}", dest.display()),
            "exists and is not a directory",
        );
        assert_eq!(std::fs::read(&file).expect("kept"), b"mine\n");
    }
}

#[test]
fn dest_dir_that_cannot_be_written_is_exit_2_and_nothing_is_left_behind() {
    // /proc refuses new entries even to root.
    let (out, took) = run(&aws_args(Path::new("/proc/ccm-render-test/out")));
    assert_failed_cleanly(
        "dest under /proc",
        &out,
        took,
        2,
        "--dest-dir: creating /proc/ccm-render-test",
        "",
    );

    // A read-only folder: refused to ordinary users (root writes anyway, so the probe decides
    // whether this half can say anything here).
    let dir = prepopulated_template("aws");
    let manifests = dir.path().join("manifests");
    std::fs::set_permissions(&manifests, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let enforced = std::fs::write(manifests.join("probe"), "").is_err();
    if enforced {
        let before = snapshot(dir.path());
        let (out, took) = run(&aws_args(dir.path()));
        assert_failed_cleanly(
            "read-only manifests",
            &out,
            took,
            2,
            "--dest-dir: creating a temporary file in",
            "Permission denied",
        );
        assert_eq!(snapshot(dir.path()), before);
    } else {
        eprintln!("running as root: file permissions are not enforced, checked /proc only");
    }
    std::fs::set_permissions(&manifests, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn symbolic_links_inside_dest_dir_are_refused_and_their_targets_untouched() {
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("victim"), "precious\n").expect("write");
    let outside_before = snapshot(outside.path());

    // A folder of the layout that links out of --dest-dir.
    let dest = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(outside.path(), dest.path().join("manifests")).expect("link");
    let before = snapshot(dest.path());
    let (out, took) = run(&aws_args(dest.path()));
    assert_failed_cleanly(
        "linked folder",
        &out,
        took,
        2,
        "--dest-dir: ",
        "is a symbolic link; refusing to write through it",
    );
    assert_eq!(snapshot(dest.path()), before);
    assert_eq!(snapshot(outside.path()), outside_before);

    // A file the render writes that links elsewhere.
    let dest = prepopulated_template("aws");
    let (out, _) = run(&aws_args(dest.path()));
    assert!(out.status.success(), "{}", stderr(&out));
    let target = dest
        .path()
        .join("manifests/deployment-aws-cloud-controller-manager.yaml");
    std::fs::remove_file(&target).expect("rm");
    std::os::unix::fs::symlink(outside.path().join("victim"), &target).expect("link");
    let before = snapshot(dest.path());
    let (out, took) = run(&aws_args(dest.path()));
    assert_failed_cleanly(
        "linked file",
        &out,
        took,
        2,
        "--dest-dir: ",
        "is a symbolic link; refusing to replace it",
    );
    assert_eq!(snapshot(dest.path()), before);
    assert_eq!(snapshot(outside.path()), outside_before);
}

#[test]
fn dest_dir_named_through_a_symbolic_link_is_the_folder_it_names() {
    // The user chose the path: links on the way to --dest-dir (or --dest-dir itself) are
    // followed, only links below it are refused.
    let real = tempfile::tempdir().expect("tempdir");
    let links = tempfile::tempdir().expect("tempdir");
    let link = links.path().join("dest");
    std::os::unix::fs::symlink(real.path(), &link).expect("link");
    for dest in [link.clone(), link.join("nested/out")] {
        let (out, _) = run(&aws_args(&dest));
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(dest.join("manifests").is_dir());
    }
    assert!(real.path().join("nested/out/config/cloud.conf").is_file());
}

#[test]
fn failure_while_writing_rolls_back_every_file_already_written() {
    // config/cloud.conf is a folder: bootstrap/ files are written first (sorted order), then
    // the write fails, and they must be taken back.
    let dest = prepopulated_template("aws");
    let cloud_conf = dest.path().join("config/cloud.conf");
    std::fs::remove_file(&cloud_conf).expect("rm");
    std::fs::create_dir(&cloud_conf).expect("mkdir");
    for entry in std::fs::read_dir(dest.path().join("bootstrap")).expect("bootstrap") {
        std::fs::write(entry.expect("entry").path(), "old pod\n").expect("edit");
    }
    std::fs::remove_dir_all(dest.path().join("manifests")).expect("rm");
    let before = snapshot(dest.path());
    let (out, took) = run(&aws_args(dest.path()));
    assert_failed_cleanly(
        "cloud.conf is a folder",
        &out,
        took,
        2,
        "--dest-dir: ",
        "config/cloud.conf exists and is not a file",
    );
    assert_eq!(snapshot(dest.path()), before);
}

#[test]
fn modes_are_0644_for_manifests_and_0600_for_config_and_a_rerun_rewrites_nothing() {
    let dest = tempfile::tempdir().expect("tempdir");
    let args = aws_args(dest.path());
    assert!(run(&args).0.status.success());
    let first = snapshot(dest.path());
    let mut files = 0;
    for (path, entry) in &first {
        if let Entry::File(_, mode) = entry {
            files += 1;
            let want = if path.starts_with("config/") || path.starts_with("secrets/") {
                0o600
            } else {
                0o644
            };
            assert_eq!(*mode, want, "{path}: {mode:o}");
        }
    }
    assert!(files > 5, "{first:?}");
    let identity = |p: &Path| {
        let meta = std::fs::metadata(p).expect("exists");
        (meta.ino(), meta.mtime(), meta.mtime_nsec())
    };
    let conf = dest.path().join("config/cloud.conf");
    let conf_identity = identity(&conf);
    let (out, _) = run(&args);
    assert!(stderr(&out).contains("(0 written"), "{}", stderr(&out));
    assert_eq!(snapshot(dest.path()), first);
    assert_eq!(identity(&conf), conf_identity, "cloud.conf was rewritten");

    // A widened mode is put back.
    std::fs::set_permissions(&conf, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    assert!(run(&args).0.status.success());
    assert_eq!(snapshot(dest.path()), first);
}

/// A marker that must never reach the output.
const MARKER: &str = "unknown-field-marker";

/// Adds fields no version of the API has, at the top, in metadata, spec and status.
fn with_unknown_fields(text: &str) -> String {
    let mut docs = ccm_catalogue::yaml::documents(text).expect("parses");
    for doc in &mut docs {
        let object = doc.as_object_mut().expect("an object");
        object.insert(MARKER.into(), MARKER.into());
        for key in ["metadata", "spec", "status"] {
            let entry = object
                .entry(key)
                .or_insert_with(|| serde_json::json!({}))
                .as_object_mut()
                .expect("an object");
            entry.insert("futureField".into(), serde_json::json!({ "value": MARKER }));
            entry.insert(MARKER.into(), serde_json::json!([MARKER]));
        }
    }
    docs.iter()
        .map(|doc| ccm_catalogue::yaml::to_string(doc).expect("serialises"))
        .collect::<Vec<_>>()
        .join("---\n")
}

#[test]
fn unknown_fields_are_tolerated_and_never_copied_into_the_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };
    let read = |path: PathBuf| std::fs::read_to_string(path).expect("read");
    let proxy = write(
        "proxy.yaml",
        with_unknown_fields(&read(variant("proxy.yaml"))),
    );
    let gates = write(
        "featuregate.yaml",
        with_unknown_fields(&read(variant("featuregate-techpreview.yaml"))),
    );
    let apiserver = write(
        "apiserver.yaml",
        with_unknown_fields(&read(variant("apiserver-custom-strict.yaml"))),
    );
    let images_cm = write(
        "images.yaml",
        with_unknown_fields(&format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cloud-controller-manager-images\ndata:\n  images.json: {}\n",
            serde_json::to_string(&read(conformance("images.json"))).expect("json")
        )),
    );
    let network = write(
        "network.yaml",
        with_unknown_fields(&read(conformance("network.yaml"))),
    );
    for platform in PLATFORMS {
        let infra = write(
            &format!("{platform}-infrastructure.yaml"),
            with_unknown_fields(&read(conformance(&format!(
                "{platform}/infrastructure.yaml"
            )))),
        );
        let cloud = write(
            &format!("{platform}-cloud-provider-config.yaml"),
            with_unknown_fields(&read(conformance(&format!(
                "{platform}/cloud-provider-config.yaml"
            )))),
        );
        let mut inputs = good_inputs(platform);
        inputs[0].1 = infra;
        inputs[2].1 = cloud;
        inputs[1].1.clone_from(&images_cm);
        inputs[3].1.clone_from(&network);
        inputs.extend([
            ("--proxy".to_string(), proxy.clone()),
            ("--feature-gate".to_string(), gates.clone()),
            ("--apiserver".to_string(), apiserver.clone()),
        ]);
        let dest = tempfile::tempdir().expect("tempdir");
        let (out, _) = run(&render_args(&inputs, dest.path()));
        assert!(out.status.success(), "{platform}: {}", stderr(&out));
        let tree = read_tree(dest.path());
        assert!(tree.len() > 5, "{platform}");
        for (path, bytes) in &tree {
            assert!(
                !String::from_utf8_lossy(bytes).contains(MARKER),
                "{platform}: {path} carries an unknown input field"
            );
        }
    }
}
