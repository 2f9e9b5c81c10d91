//! Crashes, full disks and concurrent runs against the real binary: after a SIGKILL
//! at any instant the next run leaves `--dest-dir` exactly the old or the new render, and a
//! directory being written new is missing or whole, never part of a render; renders
//! racing into a new directory all succeed and leave one render; a run that cannot get the lock
//! gives up naming the holder; a disk that fills mid-update leaves the old render.
//! The step-by-step fault injection is in src/output/tests.rs.

use crate::common;

use common::{Entry, conformance, files_of_ccm_render, snapshot, stderr, variant};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The two renders the tests switch between: Azure as the conformance case, and Azure
/// single-node with a proxy and a Modern TLS profile (contents change, files come and go).
fn render_args(which: usize, dest: &Path) -> Vec<String> {
    let path = |p: PathBuf| p.to_string_lossy().into_owned();
    let mut args = vec![
        "render".to_string(),
        "--images".into(),
        path(conformance("images.json")),
        "--cloud-config".into(),
        path(conformance("azure/cloud-provider-config.yaml")),
        "--dest-dir".into(),
        path(dest.to_path_buf()),
        "--prune".into(),
    ];
    if which == 0 {
        args.extend([
            "--infrastructure".into(),
            path(conformance("azure/infrastructure.yaml")),
        ]);
    } else {
        args.extend([
            "--infrastructure".into(),
            path(conformance("azure/infrastructure-sno.yaml")),
            "--proxy".into(),
            path(variant("proxy.yaml")),
            "--apiserver".into(),
            path(variant("apiserver-modern-strict.yaml")),
        ]);
    }
    args
}

fn command(args: &[String]) -> Command {
    let mut command = Command::new(crate::common::binary());
    command.args(args).env_remove("CCM_RENDER_LOCK_TIMEOUT");
    command
}

fn run(args: &[String]) -> Output {
    command(args).output().expect("the binary runs")
}

/// The snapshots of the two renders, each into a fresh directory.
fn expected_trees() -> [BTreeMap<String, Entry>; 2] {
    [0, 1].map(|which| {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = run(&render_args(which, dir.path()));
        assert!(out.status.success(), "{}", stderr(&out));
        snapshot(dir.path())
    })
}

/// Opens `dest` for writing through the library, which repairs what a crash left, as the
/// next run would do first.
fn recover(dest: &Path) {
    let dest = camino::Utf8Path::from_path(dest).expect("utf8");
    drop(ccm_render::output::Dest::open(dest).expect("recovers"));
}

/// A small xorshift generator: the soak's instants, reproducible from the printed seed.
struct Rng(u64);

impl Rng {
    /// A generator seeded from the clock, and its seed, which is printed (with `span`, how long
    /// a run takes) so that a failing soak can be replayed.
    fn from_clock(span: u64) -> (u64, Self) {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock");
        let seed = (now.as_secs() << 30) ^ u64::from(now.subsec_nanos()) | 1;
        eprintln!("soak: seed {seed}, a run takes {span} us");
        (seed, Self(seed))
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

#[test]
fn sigkill_at_random_instants_never_leaves_a_mix_of_renders_or_stray_files() {
    let expected = expected_trees();
    assert_ne!(expected[0], expected[1]);
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    assert!(run(&render_args(0, &dest)).status.success());
    // How long a whole run takes here: kills land anywhere in it.
    let start = Instant::now();
    assert!(run(&render_args(1, &dest)).status.success());
    assert!(run(&render_args(0, &dest)).status.success());
    let span = u64::try_from((start.elapsed() / 2).as_micros()).expect("small");
    let (seed, mut rng) = Rng::from_clock(span);
    let (mut kills, mut cut_short, mut checked) = (0, 0, 0);
    // 300 kills take a few seconds on an idle 2-core machine; the deadline only bounds a
    // loaded one (other test binaries building or running beside this one), where one kill
    // and its recovery can take half a second.
    let deadline = Instant::now() + Duration::from_secs(50);
    let mut current = 0;
    while kills < 300 && Instant::now() < deadline {
        let target = 1 - current;
        let mut child = command(&render_args(target, &dest))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawns");
        // Half the kills anywhere in the run, half in its second half, where it writes.
        let at = if rng.below(2) == 0 {
            rng.below(span * 11 / 10)
        } else {
            span / 2 + rng.below(span * 6 / 10)
        };
        std::thread::sleep(Duration::from_micros(at));
        let _ = child.kill();
        child.wait().expect("reaped");
        kills += 1;
        let before = snapshot(&dest);
        let debris = before.keys().any(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            ccm_render::output::is_temporary(name) || p == ccm_render::output::JOURNAL_FILE
        });
        if debris {
            cut_short += 1;
            // --check right after the crash reports it (exit 1) and writes nothing.
            if checked < 20 {
                checked += 1;
                let mut args = render_args(current, &dest);
                args.push("--check".into());
                let out = run(&args);
                assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
                assert!(stderr(&out).contains("crash"), "{}", stderr(&out));
                assert_eq!(snapshot(&dest), before, "--check wrote");
            }
        }
        recover(&dest);
        let after = snapshot(&dest);
        current = expected
            .iter()
            .position(|tree| *tree == after)
            .unwrap_or_else(|| {
                panic!(
                    "seed {seed}, kill {kills}: neither render after recovery: {:?}",
                    after.keys().collect::<Vec<_>>()
                )
            });
    }
    eprintln!("soak: {kills} kills, {cut_short} left an update to repair");
    assert!(kills >= 60, "only {kills} kills in the time");
    assert!(
        cut_short > 0,
        "no kill landed during an update (seed {seed})"
    );
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("lists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn sigkill_while_writing_a_new_directory_leaves_it_missing_or_whole_and_the_next_run_cleans_up() {
    let expected = expected_trees();
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    let start = Instant::now();
    for _ in 0..3 {
        let _ = std::fs::remove_dir_all(&dest);
        assert!(run(&render_args(0, &dest)).status.success());
    }
    let span = u64::try_from((start.elapsed() / 3).as_micros()).expect("small");
    let (seed, mut rng) = Rng::from_clock(span);
    let (mut kills, mut missing, mut staged) = (0, 0, 0);
    let deadline = Instant::now() + Duration::from_secs(40);
    while kills < 200 && Instant::now() < deadline {
        let which = usize::try_from(rng.below(2)).expect("0 or 1");
        let _ = std::fs::remove_dir_all(&dest);
        let mut child = command(&render_args(which, &dest))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawns");
        std::thread::sleep(Duration::from_micros(rng.below(span * 12 / 10)));
        let _ = child.kill();
        child.wait().expect("reaped");
        kills += 1;
        // Missing, or the whole render: never part of one.
        if dest.exists() {
            assert_eq!(
                snapshot(&dest),
                expected[which],
                "seed {seed}, kill {kills}"
            );
        } else {
            missing += 1;
        }
        // Beside it, at most the staging folder of the killed run.
        let left: Vec<String> = names_in(dir.path())
            .into_iter()
            .filter(|name| name != "out")
            .collect();
        assert!(left.len() <= 1, "seed {seed}, kill {kills}: {left:?}");
        staged += left.len();
        // The next run writes the render and removes what the killed one left.
        let other = 1 - which;
        let out = run(&render_args(other, &dest));
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(
            snapshot(&dest),
            expected[other],
            "seed {seed}, kill {kills}"
        );
        assert_eq!(names_in(dir.path()), ["out"], "seed {seed}, kill {kills}");
    }
    eprintln!("soak: {kills} kills, {missing} left no directory, {staged} a staging folder");
    assert!(kills >= 40, "only {kills} kills in the time");
    assert!(
        staged > 0,
        "no kill landed while a folder was staged (seed {seed})"
    );
}

#[test]
fn twenty_renders_racing_into_a_new_directory_all_succeed_and_leave_one_render() {
    let expected = expected_trees();
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("new/out");
    let children: Vec<_> = (0..20)
        .map(|i| {
            command(&render_args(i % 2, &dest))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawns")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().expect("waits");
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let after = snapshot(&dest);
    assert!(expected.contains(&after), "not one render");
}

#[test]
fn a_run_that_cannot_get_the_lock_gives_up_naming_the_directory_and_the_holder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    assert!(run(&render_args(0, &dest)).status.success());
    let before = snapshot(&dest);
    // The lock is the directory's own flock, held here as a render would hold it.
    let lock = std::fs::File::open(&dest).expect("open");
    lock.lock().expect("locks");
    for extra in [None, Some("--check")] {
        let mut args = render_args(1, &dest);
        args.extend(extra.map(String::from));
        let start = Instant::now();
        let out = command(&args)
            .env("CCM_RENDER_LOCK_TIMEOUT", "0.3")
            .output()
            .expect("runs");
        let all = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{all}");
        assert!(start.elapsed() >= Duration::from_millis(300));
        // The render's warnings, then one error line.
        let err = all.lines().last().unwrap_or_default();
        assert!(!all.contains("caused by"), "{all}");
        assert!(err.starts_with("error: --dest-dir "), "{all}");
        assert!(err.contains(&dest.display().to_string()), "{err}");
        assert!(
            err.contains(&format!("(a render, pid {})", std::process::id())),
            "{err}"
        );
        assert!(err.contains("CCM_RENDER_LOCK_TIMEOUT"), "{err}");
        assert_eq!(snapshot(&dest), before);
    }
    lock.unlock().expect("unlocks");
    // A bad value is an error even when there is nothing to wait for.
    let out = command(&render_args(1, &dest))
        .env("CCM_RENDER_LOCK_TIMEOUT", "nonsense")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("\nerror: CCM_RENDER_LOCK_TIMEOUT=\"nonsense\""),
        "{}",
        stderr(&out)
    );
    assert_eq!(snapshot(&dest), before);
    assert!(run(&render_args(1, &dest)).status.success());
    assert_eq!(files_of_ccm_render(&dest), Vec::<String>::new());
}

#[test]
fn check_and_a_render_that_changes_nothing_never_create_or_lock_a_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing");
    let mut args = render_args(0, &missing);
    args.push("--check".into());
    assert_eq!(run(&args).status.code(), Some(1));
    assert!(!missing.exists());
    // A new directory is written whole, and neither that nor --check leaves a file of
    // ccm-render's in it.
    let dest = dir.path().join("out");
    assert!(run(&render_args(0, &dest)).status.success());
    assert_eq!(files_of_ccm_render(&dest), Vec::<String>::new());
    let mut args = render_args(0, &dest);
    args.push("--check".into());
    assert_eq!(run(&args).status.code(), Some(0));
    assert_eq!(files_of_ccm_render(&dest), Vec::<String>::new());
    // Nor does a render that changes nothing: it writes nothing at all.
    let before = snapshot(&dest);
    let folder_time = std::fs::metadata(dest.join("manifests"))
        .and_then(|m| m.modified())
        .expect("mtime");
    let out = run(&render_args(0, &dest));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(snapshot(&dest), before);
    let after_time = std::fs::metadata(dest.join("manifests"))
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(after_time, folder_time);
}

/// Mounts a tmpfs of `size` at a new folder, when this process may (root, and mount(8)
/// works); unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(size: &str) -> Option<Self> {
        let dir = tempfile::tempdir().ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Self { dir })
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

// src/output/tests.rs injects ENOSPC at every step of an update in any case; this is the
// kernel's own full disk.
#[test]
#[ignore = "needs root, to mount a 1 MiB tmpfs: run scripts/test (as root)"]
fn a_disk_that_fills_mid_update_leaves_the_old_render() {
    let disk = SmallDisk::mount("1m").expect("a 1 MiB tmpfs mounted (root and mount(8))");
    let expected = expected_trees();
    let dest = disk.dir.path().join("out");
    assert!(run(&render_args(0, &dest)).status.success());
    // Fill the disk, then free two pages: the update can stage a file or two, not all.
    let filler = disk.dir.path().join("filler");
    let mut written = 0usize;
    {
        use std::io::Write as _;
        let mut file = std::fs::File::create(&filler).expect("create");
        while file.write_all(&[0; 4096]).is_ok() {
            written += 4096;
        }
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&filler)
        .expect("open");
    file.set_len((written - 2 * 4096) as u64).expect("shrinks");
    drop(file);
    let out = run(&render_args(1, &dest));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    assert_eq!(snapshot(&dest), expected[0], "not the old render");
    std::fs::remove_file(&filler).expect("rm");
    let out = run(&render_args(1, &dest));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(snapshot(&dest), expected[1]);
}

#[test]
fn check_reports_a_cut_short_update_and_the_next_render_completes_it() {
    let expected = expected_trees();
    let dir = tempfile::tempdir().expect("tempdir");
    let dest = dir.path().join("out");
    assert!(run(&render_args(0, &dest)).status.success());
    // What a render killed right after its commit leaves: a staged file, the journal naming
    // it, and a stray temporary file of an earlier crash.
    let staged = "config/.ccm-render-tmp-Q1w2E3r4T5";
    std::fs::write(dest.join(staged), "half\n").expect("stage");
    std::fs::write(dest.join("manifests/.ccm-render-tmp-Zz9Yy8Xx7W"), "x").expect("stray");
    std::fs::write(
        dest.join(ccm_render::output::JOURNAL_FILE),
        format!(
            r#"{{"version":1,"steps":[{{"op":"rename","from":"{staged}","to":"config/cloud.conf"}}]}}"#
        ),
    )
    .expect("journal");
    let before = snapshot(&dest);

    let mut args = render_args(0, &dest);
    args.push("--check".into());
    let out = run(&args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let list = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        list,
        "repair   .ccm-render.journal\nremoved  manifests/.ccm-render-tmp-Zz9Yy8Xx7W\n"
    );
    assert!(stderr(&out).contains("cut short by a crash (files not yet updated: 1)"));
    args.extend(["--output".into(), "json".into()]);
    let json: serde_json::Value = serde_json::from_slice(&run(&args).stdout).expect("json");
    assert_eq!(json["interruptedUpdate"], true);
    assert_eq!(
        json["temporaryFiles"],
        serde_json::json!(["manifests/.ccm-render-tmp-Zz9Yy8Xx7W"])
    );
    assert_eq!(snapshot(&dest), before, "--check wrote");

    let out = run(&render_args(0, &dest));
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("completed an update that a crashed run left half done"),
        "{err}"
    );
    assert!(
        err.contains("removed temporary files a crashed run left: 1"),
        "{err}"
    );
    assert_eq!(snapshot(&dest), expected[0]);
}
