//! Tests of the whole output stage: layout on disk, plans, prune, and updates cut short at every
//! step by [`super::failpoint`].

use super::names::LEGACY_LOCK as LEGACY_LOCK_FILE;
use super::tree::{FOLDERS, SECRETS_DIR_MODE};
use super::*;
use crate::render::Rendered;
use camino::Utf8PathBuf;
use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt as _;

fn obj(kind: &str, ns: Option<&str>, name: &str) -> Value {
    let mut v = json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name}});
    if let Some(ns) = ns {
        v["metadata"]["namespace"] = json!(ns);
    }
    v
}

/// The permission bits of `dest/relative`.
fn mode_of(dest: &Utf8Path, relative: &str) -> u32 {
    std::fs::metadata(dest.join(relative))
        .expect("exists")
        .permissions()
        .mode()
        & 0o7777
}

fn sample_tree() -> Tree {
    let rendered = Rendered {
        manifests: vec![obj("ConfigMap", Some("ns"), "a")],
        config_files: [("cloud.conf".to_string(), "[Global]\n".to_string())].into(),
        ..Rendered::default()
    };
    tree(&rendered).expect("tree")
}

#[test]
fn write_creates_the_layout_with_modes_and_a_rerun_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = Utf8Path::from_path(dir.path()).expect("utf8").join("out");
    let report = apply(&sample_tree(), &dest, false).expect("writes");
    assert_eq!(report.written.len(), 2);
    for folder in FOLDERS {
        assert!(dest.join(folder).is_dir(), "{folder}");
    }
    assert_eq!(mode_of(&dest, "config/cloud.conf"), 0o600);
    assert_eq!(mode_of(&dest, "manifests/configmap-a.yaml"), 0o644);
    let again = apply(&sample_tree(), &dest, false).expect("rewrites");
    assert!(again.written.is_empty());
    assert_eq!(again.unchanged.len(), 2);
}

#[test]
fn dest_that_is_a_file_is_refused() {
    let file = tempfile::NamedTempFile::new().expect("temp");
    let dest = Utf8Path::from_path(file.path()).expect("utf8");
    let err = apply(&sample_tree(), dest, false).expect_err("a file");
    assert!(format!("{err:#}").contains("is not a directory"), "{err}");
}

#[test]
fn failure_midway_rolls_back_every_change() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = Utf8Path::from_path(dir.path()).expect("utf8");
    std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
    std::fs::write(dest.join("manifests/configmap-a.yaml"), "old\n").expect("seed");
    // A directory where a file must go makes the second write fail.
    std::fs::create_dir_all(dest.join("manifests/configmap-z.yaml")).expect("blocker");
    let mut t = sample_tree();
    t.files.insert(
        "manifests/configmap-z.yaml".into(),
        File {
            bytes: b"new".to_vec(),
            mode: PUBLIC_MODE,
        },
    );
    assert!(apply(&t, dest, false).is_err());
    assert_eq!(
        std::fs::read_to_string(dest.join("manifests/configmap-a.yaml")).expect("kept"),
        "old\n"
    );
    assert!(!dest.join("config").exists(), "created folder removed");
}

fn utf8(dir: &tempfile::TempDir) -> Utf8PathBuf {
    Utf8Path::from_path(dir.path()).expect("utf8").to_owned()
}

#[test]
fn plan_writes_nothing_and_sees_every_kind_of_change() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = utf8(&dir).join("out");
    let fresh = plan(&sample_tree(), &dest, true).expect("plan");
    assert!(!dest.exists(), "plan created the directory");
    assert_eq!(fresh.missing_folders.len(), 3);
    assert!(fresh.entries.iter().all(|e| e.change == Change::Added));

    apply(&sample_tree(), &dest, false).expect("writes");
    let clean = plan(&sample_tree(), &dest, true).expect("plan");
    assert!(!clean.has_changes(), "{clean:?}");

    std::fs::set_permissions(
        dest.join("config/cloud.conf"),
        std::fs::Permissions::from_mode(0o644),
    )
    .expect("chmod");
    std::fs::write(dest.join("manifests/stale.yaml"), "x\n").expect("stale");
    let without_prune = plan(&sample_tree(), &dest, false).expect("plan");
    let changes: Vec<_> = without_prune
        .entries
        .iter()
        .map(|e| (e.path.as_str(), e.change))
        .collect();
    assert_eq!(
        changes,
        [
            ("config/cloud.conf", Change::Changed),
            ("manifests/configmap-a.yaml", Change::Unchanged)
        ]
    );
    assert_eq!(without_prune.left, ["manifests/stale.yaml"]);
    let with_prune = plan(&sample_tree(), &dest, true).expect("plan");
    assert!(
        with_prune
            .entries
            .iter()
            .any(|e| e.path == "manifests/stale.yaml" && e.change == Change::Removed)
    );
}

#[test]
fn prune_removes_only_stale_files_under_the_output_folders() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = utf8(&dir);
    std::fs::create_dir_all(dest.join("secrets/old")).expect("mkdir");
    std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
    std::fs::write(dest.join("secrets/old/key"), "k").expect("seed");
    std::fs::write(dest.join("manifests/stale.yaml"), "x").expect("seed");
    std::fs::write(dest.join("README"), "not ours").expect("seed");
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("target"), "keep").expect("seed");
    std::os::unix::fs::symlink(outside.path().join("target"), dest.join("manifests/link"))
        .expect("symlink");

    let kept = apply(&sample_tree(), &dest, false).expect("writes");
    assert!(kept.removed.is_empty());
    assert!(dest.join("manifests/stale.yaml").exists());
    assert_eq!(kept.left.len(), 3, "{:?}", kept.left);

    let report = apply(&sample_tree(), &dest, true).expect("prunes");
    assert_eq!(report.removed, ["manifests/stale.yaml", "secrets/old/key"]);
    assert_eq!(report.left, ["manifests/link"]);
    assert!(!dest.join("secrets").exists(), "emptied secrets/ removed");
    assert!(dest.join("README").exists());
    assert!(dest.join("manifests/link").is_symlink());
    assert_eq!(
        std::fs::read_to_string(outside.path().join("target")).expect("kept"),
        "keep"
    );
}

#[test]
fn a_failed_prune_restores_removed_files_and_written_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = utf8(&dir);
    std::fs::create_dir_all(dest.join("manifests")).expect("mkdir");
    std::fs::write(dest.join("manifests/a-stale.yaml"), "old").expect("seed");
    // A socket sorts after it and cannot be read as a file: the prune fails there.
    let _socket =
        std::os::unix::net::UnixListener::bind(dest.join("manifests/z.sock")).expect("socket");
    let err = apply(&sample_tree(), &dest, true).expect_err("fails");
    assert!(format!("{err:#}").contains("z.sock"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dest.join("manifests/a-stale.yaml")).expect("restored"),
        "old"
    );
    assert!(!dest.join("manifests/configmap-a.yaml").exists());
    assert!(!dest.join("config").exists());
}

#[test]
fn a_symlinked_folder_is_never_followed_by_prune() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = utf8(&dir);
    let outside = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(outside.path(), dest.join("secrets")).expect("symlink");
    std::fs::write(outside.path().join("x"), "keep").expect("seed");
    let planned = plan(&sample_tree(), &dest, true).expect("plan");
    assert!(planned.entries.iter().all(|e| e.change != Change::Removed));
    assert_eq!(planned.left, ["secrets"]);
    let report = apply(&sample_tree(), &dest, true).expect("writes");
    assert!(report.removed.is_empty());
    assert!(outside.path().join("x").exists());
    // A symlinked folder the render writes into is refused, as before.
    std::fs::remove_dir_all(dest.join("config")).expect("rm");
    std::os::unix::fs::symlink(outside.path(), dest.join("config")).expect("symlink");
    let err = plan(&sample_tree(), &dest, true).expect_err("refused");
    assert!(format!("{err:#}").contains("symbolic link"), "{err}");
}

fn file(text: &str, mode: u32) -> File {
    File {
        bytes: text.as_bytes().to_vec(),
        mode,
    }
}

/// A tree of `files`, with the layout's folders (and `secrets/` when `secrets`).
fn tree_of(files: &[(&str, &str, u32)], secrets: bool) -> Tree {
    Tree {
        files: files
            .iter()
            .map(|(path, text, mode)| (Utf8PathBuf::from(*path), file(text, *mode)))
            .collect(),
        folders: if secrets {
            [FOLDERS.as_slice(), &[SECRETS]].concat()
        } else {
            FOLDERS.to_vec()
        },
        objects: std::collections::BTreeMap::new(),
    }
}

/// Two renders that differ in every way an update can: a file unchanged, one changed in
/// contents, one in mode, one added, files pruned from a folder that they leave empty (and in
/// the other direction: a folder with a mode to create, a nested one, files added there).
fn two_trees() -> (Tree, Tree) {
    let old = tree_of(
        &[
            ("bootstrap/pod.yaml", "pod\n", PUBLIC_MODE),
            ("config/cloud.conf", "[Global]\nold\n", PRIVATE_MODE),
            ("manifests/a.yaml", "a: old\n", PUBLIC_MODE),
            ("manifests/mode.yaml", "same\n", PRIVATE_MODE),
            ("manifests/stale.yaml", "stale\n", PUBLIC_MODE),
            ("secrets/cloud/key", "k\n", PRIVATE_MODE),
            ("secrets/token", "t\n", PRIVATE_MODE),
        ],
        true,
    );
    let new = tree_of(
        &[
            ("bootstrap/pod.yaml", "pod\n", PUBLIC_MODE),
            ("config/cloud.conf", "[Global]\nnew\n", PRIVATE_MODE),
            ("manifests/a.yaml", "a: new\n", PUBLIC_MODE),
            ("manifests/b.yaml", "b\n", PUBLIC_MODE),
            ("manifests/mode.yaml", "same\n", PUBLIC_MODE),
        ],
        false,
    );
    (old, new)
}

/// Everything under `dest`: files with contents and mode, folders with mode.
fn snapshot(dest: &Utf8Path) -> std::collections::BTreeMap<String, (Option<Vec<u8>>, u32)> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dest.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("list") {
            let entry = entry.expect("entry");
            let path = Utf8PathBuf::from_path_buf(entry.path()).expect("utf8");
            let relative = path.strip_prefix(dest).expect("inside").to_string();
            let meta = std::fs::symlink_metadata(&path).expect("stat");
            let mode = meta.permissions().mode() & 0o7777;
            if meta.is_dir() {
                stack.push(path);
                out.insert(relative, (None, mode));
            } else {
                out.insert(relative, (Some(std::fs::read(&path).expect("read")), mode));
            }
        }
    }
    out
}

fn temp_dest() -> (tempfile::TempDir, Utf8PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = utf8(&dir).join("out");
    (dir, dest)
}

/// Cuts the update from `from` to `to` (with --prune) at every step in turn, with `fault`,
/// and calls `check` with the directory, the result, and the old and new snapshots.
fn at_every_step(
    from: &Tree,
    to: &Tree,
    fault: failpoint::Fault,
    check: impl Fn(usize, &Utf8Path, &Result<WriteReport>, &Snapshot, &Snapshot),
) {
    let (_dir, dest) = temp_dest();
    apply(from, &dest, true).expect("old render");
    let old = snapshot(&dest);
    failpoint::arm(None, fault);
    apply(to, &dest, true).expect("new render");
    let steps = failpoint::disarm();
    let new = snapshot(&dest);
    assert_ne!(old, new);
    assert!(steps > 10, "{steps} steps");
    for step in 0..steps {
        let (_dir, dest) = temp_dest();
        apply(from, &dest, true).expect("old render");
        failpoint::arm(Some(step), fault);
        let result = apply(to, &dest, true);
        failpoint::disarm();
        check(step, &dest, &result, &old, &new);
    }
}

type Snapshot = std::collections::BTreeMap<String, (Option<Vec<u8>>, u32)>;

#[test]
fn a_crash_at_any_step_leaves_the_old_or_the_new_tree_after_recovery() {
    let (a, b) = two_trees();
    for (from, to) in [(&a, &b), (&b, &a)] {
        at_every_step(
            from,
            to,
            failpoint::Fault::Crash,
            |step, dest, result, old, new| {
                let err = result.as_ref().expect_err("crashed");
                assert!(failpoint::is_crash(err), "step {step}: {err:#}");
                let before = snapshot(dest);
                // --check right after the crash: a change to report unless the tree is the new
                // one already, and nothing written.
                let checked = plan(to, dest, true).expect("plans");
                assert_eq!(
                    checked.has_changes(),
                    &before != new,
                    "step {step}: {checked:?}"
                );
                assert_eq!(snapshot(dest), before, "step {step}: --check wrote");
                // Recovery cut short too, at its first step, then its second, and so on.
                let mut attempt = 0;
                let repaired = loop {
                    failpoint::arm(Some(attempt), failpoint::Fault::Crash);
                    let result = Dest::open(dest);
                    failpoint::disarm();
                    match result {
                        Ok(repaired) => break repaired,
                        Err(err) => assert!(failpoint::is_crash(&err), "step {step}: {err:#}"),
                    }
                    attempt += 1;
                };
                let after = snapshot(dest);
                assert!(
                    &after == old || &after == new,
                    "step {step}: neither old nor new after recovery: {:?}",
                    after.keys().collect::<Vec<_>>()
                );
                if attempt == 0 {
                    assert_eq!(
                        repaired.repaired().journal.is_some(),
                        &after == new && &before != new,
                        "step {step}"
                    );
                }
                drop(repaired);
                // And the next render finishes the job.
                apply(to, dest, true).expect("renders");
                assert_eq!(&snapshot(dest), new, "step {step}");
            },
        );
    }
}

#[test]
fn a_full_disk_at_any_step_leaves_the_old_tree_or_completes_the_update() {
    let (a, b) = two_trees();
    for (from, to) in [(&a, &b), (&b, &a)] {
        at_every_step(
            from,
            to,
            failpoint::Fault::NoSpace,
            |step, dest, result, old, new| {
                let after = snapshot(dest);
                match result {
                    // Before the commit: undone, nothing left behind.
                    Err(err) => {
                        assert!(format!("{err:#}").contains("No space left"), "{err:#}");
                        assert_eq!(&after, old, "step {step}");
                    }
                    // After it: the retry completed the update.
                    Ok(_) => assert_eq!(&after, new, "step {step}"),
                }
            },
        );
        at_every_step(
            from,
            to,
            failpoint::Fault::NoSpaceFromThen,
            |step, dest, result, old, new| {
                let err = result.as_ref().expect_err("fails");
                let after = snapshot(dest);
                if &after != old {
                    assert!(
                        format!("{err:#}").contains("completes the update"),
                        "step {step}: {err:#}"
                    );
                    assert!(after.contains_key(JOURNAL_FILE), "step {step}");
                    drop(Dest::open(dest).expect("recovers"));
                    assert_eq!(&snapshot(dest), new, "step {step}");
                }
            },
        );
    }
}

#[test]
fn a_render_that_changes_nothing_writes_nothing_and_no_render_leaves_a_lock_file() {
    let (a, _) = two_trees();
    let (dir, _) = temp_dest();
    // A directory that exists: written under its lock, which is the directory's own.
    let dest = utf8(&dir);
    apply(&a, &dest, true).expect("renders");
    let before = snapshot(&dest);
    assert_eq!(
        before
            .keys()
            .filter(|p| p.starts_with(".ccm-render"))
            .count(),
        0,
        "{before:?}"
    );
    let modified = |p: &str| {
        std::fs::metadata(dest.join(p))
            .and_then(|m| m.modified())
            .expect("mtime")
    };
    let times = (modified("manifests"), modified("manifests/a.yaml"));
    failpoint::arm(None, failpoint::Fault::Crash);
    let report = apply(&a, &dest, true).expect("renders");
    assert_eq!(failpoint::disarm(), 0, "no step taken, no flush");
    assert!(report.written.is_empty() && report.removed.is_empty());
    assert_eq!(snapshot(&dest), before);
    assert_eq!((modified("manifests"), modified("manifests/a.yaml")), times);
    // An older release's lock file stays through a render that changes nothing, and goes with
    // the next that writes.
    std::fs::write(dest.join(LEGACY_LOCK_FILE), "").expect("old lock file");
    apply(&a, &dest, true).expect("renders");
    assert!(dest.join(LEGACY_LOCK_FILE).exists());
    let (_, b) = two_trees();
    apply(&b, &dest, true).expect("renders");
    assert!(!dest.join(LEGACY_LOCK_FILE).exists());
}

#[test]
fn stray_temporary_files_are_reported_by_check_and_removed_by_the_next_render() {
    let (a, _) = two_trees();
    let (_dir, dest) = temp_dest();
    apply(&a, &dest, false).expect("renders");
    let clean = snapshot(&dest);
    // One as this version names them, one as releases before the journal did.
    std::fs::write(dest.join("manifests/.ccm-render-tmp-Zx81Qa0Lw2"), "half").expect("seed");
    std::fs::write(dest.join("secrets/cloud/.ccm-render-Ab3dE9"), "half").expect("seed");
    // Not ours, however close: kept.
    std::fs::write(dest.join("manifests/.ccm-render-notes"), "mine").expect("seed");
    // A single-file write still at work in the folder (its writer holds the lock): kept.
    let live = dest.join("config/.ccm-render-one-LiveWriter1");
    std::fs::write(&live, "in progress").expect("seed");
    let writer = std::fs::File::open(&live).expect("open");
    writer.lock().expect("locks");
    // One whose writer is gone: removed.
    std::fs::write(dest.join("config/.ccm-render-one-DeadWriter1"), "x").expect("seed");
    let checked = plan(&a, &dest, false).expect("plans");
    assert!(checked.has_changes());
    assert_eq!(
        checked.leftovers.temporary,
        [
            "config/.ccm-render-one-DeadWriter1",
            "manifests/.ccm-render-tmp-Zx81Qa0Lw2",
            "secrets/cloud/.ccm-render-Ab3dE9"
        ]
    );
    assert!(
        !checked.left.iter().any(|p| p.as_str().contains("-tmp-")),
        "{:?}",
        checked.left
    );
    let report = apply(&a, &dest, false).expect("renders");
    assert!(report.written.is_empty());
    let mut expected = clean;
    let mut now = snapshot(&dest);
    for kept in [
        "manifests/.ccm-render-notes",
        "config/.ccm-render-one-LiveWriter1",
    ] {
        expected.insert(kept.into(), now.remove(kept).expect("kept"));
    }
    assert_eq!(snapshot(&dest), expected);
    drop(writer);
}

#[test]
fn a_planted_journal_is_refused_and_nothing_is_touched() {
    let (a, _) = two_trees();
    let (_dir, dest) = temp_dest();
    apply(&a, &dest, false).expect("renders");
    std::fs::write(
        dest.join(JOURNAL_FILE),
        r#"{"version":1,"steps":[{"op":"remove","path":"../../etc/passwd"}]}"#,
    )
    .expect("plant");
    let before = snapshot(&dest);
    let err = apply(&a, &dest, false).expect_err("refused");
    assert!(format!("{err:#}").contains("not a path inside"), "{err:#}");
    assert_eq!(snapshot(&dest), before);
}

#[test]
fn renders_racing_into_a_missing_directory_all_succeed_one_at_a_time() {
    let (a, b) = two_trees();
    let (_dir, dest) = temp_dest();
    let dest = dest.join("deeper/still");
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (dest, tree) = (&dest, if i % 2 == 0 { &a } else { &b });
                scope.spawn(move || apply(tree, dest, true))
            })
            .collect();
        for handle in handles {
            handle.join().expect("no panic").expect("renders");
        }
    });
    let last = snapshot(&dest);
    let fresh = |tree: &Tree| {
        let (_dir, dest) = temp_dest();
        apply(tree, &dest, true).expect("renders");
        snapshot(&dest)
    };
    assert!(last == fresh(&a) || last == fresh(&b), "not one render");
}

#[test]
fn new_directories_written_side_by_side_at_once_are_each_written_whole() {
    // As `matrix` writes its case folders: threads writing new sibling directories, each
    // removing the staging folders it finds unlocked beside its own, some of them others'
    // that were made an instant before their writers could lock them.
    let (a, _) = two_trees();
    let dir = tempfile::tempdir().expect("tempdir");
    let parent = utf8(&dir);
    let (threads, each) = (4, 40);
    let fresh_hits = a.files.len() + 2;
    let slow: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (a, parent) = (&a, &parent);
                scope.spawn(move || {
                    let mut slow = 0;
                    for i in 0..each {
                        failpoint::arm(None, failpoint::Fault::Crash);
                        apply(a, &parent.join(format!("case-{t}-{i}")), true).expect("renders");
                        // The steps of the fresh write only, not the locked update's.
                        if failpoint::disarm() != fresh_hits {
                            slow += 1;
                        }
                    }
                    slow
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .sum()
    });
    assert_eq!(
        slow, 0,
        "cases that lost their staging folder to a neighbour"
    );
    let names = beside(&parent.join("case-0-0"));
    assert_eq!(names.len(), threads * each, "{names:?}");
    assert!(names.iter().all(|n| n.starts_with("case-")), "{names:?}");
    let one = snapshot(&parent.join("case-0-0"));
    for name in &names {
        assert_eq!(snapshot(&parent.join(name)), one, "{name}");
    }
}

#[test]
fn a_missing_or_empty_dest_is_planned_alike_by_the_shortcut_and_file_by_file() {
    let (a, b) = two_trees();
    for tree in [&a, &b, &sample_tree()] {
        for prune in [false, true] {
            let dir = tempfile::tempdir().expect("tempdir");
            let dest = utf8(&dir).join("out");
            let each = plan::compare_each(tree, &dest, prune).expect("plans");
            let shortcut = plan::compare(tree, &dest, prune).expect("plans");
            assert!(shortcut.new_dest, "a missing directory is written whole");
            assert_eq!(
                Plan {
                    new_dest: false,
                    ..shortcut
                },
                each,
                "missing"
            );
            std::fs::create_dir(&dest).expect("mkdir");
            std::fs::write(dest.join(names::LEGACY_LOCK), "").expect("lock file");
            let each = plan::compare_each(tree, &dest, prune).expect("plans");
            assert_eq!(
                plan::compare(tree, &dest, prune).expect("plans"),
                each,
                "empty"
            );
            // Anything else in it, and the plan is made file by file.
            std::fs::write(dest.join("README"), "x").expect("write");
            let each = plan::compare_each(tree, &dest, prune).expect("plans");
            assert_eq!(
                plan::compare(tree, &dest, prune).expect("plans"),
                each,
                "not empty"
            );
        }
    }
}

/// The names in the folder that holds `dest`, `dest`'s own included.
fn beside(dest: &Utf8Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dest.parent().expect("a parent"))
        .expect("lists")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf8"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_new_directory_is_written_whole_without_lock_journal_or_renames_per_file() {
    let (a, _) = two_trees();
    let (_dir, dest) = temp_dest();
    failpoint::arm(None, failpoint::Fault::Crash);
    let report = apply(&a, &dest, true).expect("renders");
    // One hit per file, the flush and the rename: nothing of the locked update.
    assert_eq!(failpoint::disarm(), a.files.len() + 2);
    assert_eq!(report.written.len(), a.files.len());
    assert_eq!(beside(&dest), ["out"], "no staging folder left");
    assert!(!dest.join(LEGACY_LOCK_FILE).exists() && !dest.join(JOURNAL_FILE).exists());
    // The same tree, folders and modes (secrets/ 0700 included) as the locked update writes.
    let (other, _) = temp_dest();
    let existing = utf8(&other);
    apply(&a, &existing, true).expect("renders");
    assert_eq!(snapshot(&dest), snapshot(&existing));
    assert_eq!(mode_of(&dest, "secrets"), SECRETS_DIR_MODE);
    assert_eq!(mode_of(&dest, "config/cloud.conf"), PRIVATE_MODE);
    // With a trailing slash too.
    std::fs::remove_dir_all(&dest).expect("rm");
    apply(&a, Utf8Path::new(&format!("{dest}/")), true).expect("renders");
    assert_eq!(snapshot(&dest), snapshot(&existing));
}

#[test]
fn a_new_directory_cut_short_at_any_step_is_missing_until_the_next_render_writes_it_whole() {
    let (a, _) = two_trees();
    let steps = a.files.len() + 2;
    for fault in [failpoint::Fault::Crash, failpoint::Fault::NoSpace] {
        for step in 0..steps {
            let (_dir, dest) = temp_dest();
            failpoint::arm(Some(step), fault);
            let result = apply(&a, &dest, true);
            failpoint::disarm();
            let err = result.expect_err("cut short");
            assert!(!dest.exists(), "step {step}: {err:#}");
            if fault == failpoint::Fault::Crash {
                // A killed run leaves its staging folder, and nothing else.
                assert!(failpoint::is_crash(&err), "step {step}: {err:#}");
                let left = beside(&dest);
                assert_eq!(left.len(), 1, "step {step}: {left:?}");
                assert!(names::is_new_tree(&left[0]), "step {step}: {left:?}");
            } else {
                // A failure removes it.
                assert!(format!("{err:#}").contains("No space left"), "{err:#}");
                assert!(beside(&dest).is_empty(), "step {step}");
            }
            // The next render removes what a killed run left and writes the directory whole.
            apply(&a, &dest, true).expect("renders");
            assert_eq!(beside(&dest), ["out"], "step {step}");
            let (other, _) = temp_dest();
            let existing = utf8(&other);
            apply(&a, &existing, true).expect("renders");
            assert_eq!(snapshot(&dest), snapshot(&existing), "step {step}");
        }
    }
}

#[test]
fn a_staging_folder_is_removed_only_when_its_writer_is_gone() {
    let (a, _) = two_trees();
    let (dir, dest) = temp_dest();
    let root = utf8(&dir);
    let live = root.join(format!("{}LiveWriter01", names::NEW_TREE_PREFIX));
    let dead = root.join(format!("{}DeadWriter01", names::NEW_TREE_PREFIX));
    for folder in [&live, &dead] {
        std::fs::create_dir_all(folder.join("manifests")).expect("mkdir");
        std::fs::write(folder.join("manifests/a.yaml"), "x").expect("write");
    }
    let writer = std::fs::File::open(&live).expect("open");
    writer.lock().expect("locks");
    apply(&a, &dest, true).expect("renders");
    assert_eq!(
        fresh::staging_folders(&root),
        [live.file_name().expect("name")],
        "the live writer's folder stays"
    );
    // A locked update of a directory in the same folder removes it once its writer is gone.
    drop(writer);
    apply(&a, &dest, true).expect("renders");
    std::fs::write(dest.join("manifests/a.yaml"), "changed").expect("write");
    apply(&a, &dest, true).expect("renders");
    assert!(fresh::staging_folders(&root).is_empty());
}

#[test]
fn a_new_directory_made_meanwhile_by_another_run_is_updated_under_its_lock() {
    let (a, b) = two_trees();
    let (_dir, dest) = temp_dest();
    // Planned while missing; another run writes it before this one renames its folder.
    let planned = plan::compare(&a, &dest, true).expect("plans");
    assert!(planned.new_dest);
    apply(&b, &dest, true).expect("the other run");
    let before = snapshot(&dest);
    assert!(
        fresh::create(&a, &dest, &planned)
            .expect("no error")
            .is_none()
    );
    assert_eq!(snapshot(&dest), before, "not replaced");
    assert_eq!(beside(&dest), ["out"], "its staging folder removed");
    // Then the locked update, as a render does.
    apply(&a, &dest, true).expect("updates");
    let (other, _) = temp_dest();
    let fresh_a = utf8(&other);
    apply(&a, &fresh_a, true).expect("renders");
    assert_eq!(snapshot(&dest), snapshot(&fresh_a));
}
