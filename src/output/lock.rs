//! Runs on one `--dest-dir` take turns: a render holds an exclusive `flock(2)` on the directory
//! itself from before its repair of a crashed run until its update is done, and a
//! `--check`/`--diff` holds a shared one while it reads, so it never reads an update half done.
//!
//! The lock is taken on the directory, not on a file in it, so that `--dest-dir` holds the
//! render and nothing else: a tree that a person diffs or adds to git (a `matrix`, whose case
//! folders are written by threads that race each other) is the same whichever way each folder
//! was written. A directory written whole (`fresh.rs`) is locked from its first instant: its
//! writer holds the `flock` of the staging folder, which is the directory once renamed. A run
//! that finds, once it holds the lock, that another directory has taken the path meanwhile
//! (`rm -rf` and a new render) locks the one now there.
//!
//! `flock` comes from the standard library (`File::lock`, stable since Rust 1.89, the crate's
//! minimum): the kernel drops it when its holder dies, so a SIGKILL never leaves the directory
//! locked, and no crate is needed. A run that gives up names the holder as the kernel lists it
//! in `/proc/locks`.
//!
//! Releases before this one locked a file in the directory, [`names::LEGACY_LOCK`], and left it
//! there; a render that writes removes it.
//!
//! A run waits at most [`DEFAULT_TIMEOUT`], or the seconds in the environment variable
//! [`TIMEOUT_VAR`], then exits 2 naming the directory and the holder.

use super::names;
use anyhow::{Context as _, Result, anyhow, bail};
use camino::Utf8Path;
use rustix::fs::{Mode, OFlags};
use std::fs::TryLockError;
use std::time::{Duration, Instant};

/// How long a run waits for the lock by default.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The environment variable that sets how long a run waits for the lock, in seconds
/// (a decimal number such as `5` or `0.5`; `0` gives up at once).
pub(crate) const TIMEOUT_VAR: &str = "CCM_RENDER_LOCK_TIMEOUT";

/// How many times a run locks the directory at the path again after finding it replaced.
const REPLACED_TRIES: usize = 8;

/// A held lock on a directory, released when dropped (or when the process ends).
#[derive(Debug)]
pub(super) struct DirLock {
    _dir: std::fs::File,
}

/// Which lock a run takes.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Exclusive,
    Shared,
}

impl DirLock {
    /// Takes the exclusive lock of `dest`, which exists, and removes a lock file that an older
    /// release left in it.
    pub(super) fn exclusive(dest: &Utf8Path) -> Result<Self> {
        let lock = take(dest, Kind::Exclusive)?.ok_or_else(|| {
            anyhow!("--dest-dir {dest}: removed by another program while this run waited for it")
        })?;
        let legacy = names::join(dest, names::LEGACY_LOCK);
        if std::fs::symlink_metadata(&legacy).is_ok_and(|m| m.is_file()) {
            // Best effort: the file locks nothing any more.
            let _ = std::fs::remove_file(&legacy);
        }
        Ok(lock)
    }

    /// Takes a shared lock of `dest` when it exists, without creating or writing anything;
    /// None when it does not exist.
    pub(super) fn shared_if_present(dest: &Utf8Path) -> Result<Option<Self>> {
        take(dest, Kind::Shared)
    }
}

/// Locks the directory at `dest` as `kind` says, waiting as [`wait`] does; None when there is
/// no directory there.
fn take(dest: &Utf8Path, kind: Kind) -> Result<Option<DirLock>> {
    let timeout = timeout()?;
    for _ in 0..REPLACED_TRIES {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let dir = match rustix::fs::open(dest.as_str(), flags, Mode::empty()) {
            Ok(fd) => std::fs::File::from(fd),
            Err(rustix::io::Errno::NOENT) => return Ok(None),
            Err(err) => {
                return Err(std::io::Error::from(err))
                    .with_context(|| format!("--dest-dir {dest}: opening it to lock it"));
            }
        };
        wait(dest, &dir, timeout, || match kind {
            Kind::Exclusive => dir.try_lock(),
            Kind::Shared => dir.try_lock_shared(),
        })?;
        // Still the directory at the path (followed: a link to it is the user's choice).
        if same_file(&dir, dest) {
            return Ok(Some(DirLock { _dir: dir }));
        }
    }
    bail!("--dest-dir {dest}: replaced by another program each time this run locked it")
}

/// Whether `path`, followed, is the file `handle` has open.
fn same_file(handle: &std::fs::File, path: &Utf8Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let ours = handle.metadata().map(|m| (m.dev(), m.ino()));
    let there = std::fs::metadata(path).map(|m| (m.dev(), m.ino()));
    matches!((ours, there), (Ok(a), Ok(b)) if a == b)
}

/// Calls `try_lock` until it succeeds or `timeout` passes.
fn wait(
    dest: &Utf8Path,
    dir: &std::fs::File,
    timeout: Duration,
    try_lock: impl Fn() -> Result<(), TryLockError>,
) -> Result<()> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        match try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(err)) => {
                return Err(err).with_context(|| format!("--dest-dir {dest}: locking it"));
            }
        }
        let waited = start.elapsed();
        if waited >= timeout {
            bail!(
                "--dest-dir {dest}: another run holds its lock ({}); gave up after {:.1} s (set {TIMEOUT_VAR} to wait longer)",
                holder(dir),
                waited.as_secs_f64()
            );
        }
        std::thread::sleep(pause.min(timeout.saturating_sub(waited)));
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

/// Who holds the lock of the directory `dir` has open, as `/proc/locks` says.
fn holder(dir: &std::fs::File) -> String {
    use std::os::unix::fs::MetadataExt as _;
    let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
    dir.metadata()
        .ok()
        .and_then(|meta| holder_in(&locks, meta.dev(), meta.ino()))
        .unwrap_or_else(|| "its pid not known".to_string())
}

/// The first holder of a `flock` on the file `dev`/`ino` in `locks`, the text of
/// `/proc/locks`: `1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF` (device numbers in hex, the
/// inode in decimal; a waiter's line has `->` after the number and is skipped). The kernel lists
/// the device of the filesystem, which on some (btrfs subvolumes) is not the one `stat` gives:
/// the inode alone then decides.
fn holder_in(locks: &str, dev: u64, ino: u64) -> Option<String> {
    let device = format!(
        "{:02x}:{:02x}",
        rustix::fs::major(dev),
        rustix::fs::minor(dev)
    );
    let inode = format!(":{ino}");
    let mut same_inode = None;
    for line in locks.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, "FLOCK", _, kind, pid, file, ..] = fields[..] else {
            continue;
        };
        if !file.ends_with(&inode) || pid == "0" || !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let who = match kind {
            "WRITE" => format!("a render, pid {pid}"),
            _ => format!("a --check or --diff, pid {pid}"),
        };
        if file.strip_suffix(&inode) == Some(device.as_str()) {
            return Some(who);
        }
        same_inode.get_or_insert(who);
    }
    same_inode
}

/// The wait from [`TIMEOUT_VAR`], or [`DEFAULT_TIMEOUT`].
pub(super) fn timeout() -> Result<Duration> {
    let Some(value) = std::env::var_os(TIMEOUT_VAR) else {
        return Ok(DEFAULT_TIMEOUT);
    };
    let text = value.to_string_lossy();
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| {
            anyhow!(
                "{TIMEOUT_VAR}={:?}: not a number of seconds (such as 30 or 0.5)",
                text.as_ref()
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_exclusive_lock_waits_then_names_the_holder() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = Utf8Path::from_path(dir.path()).expect("utf8");
        let held = DirLock::exclusive(dest).expect("first");
        // A second open file description of the same directory: flock treats it as another
        // holder.
        let other = std::fs::File::open(dest).expect("open");
        let start = Instant::now();
        let err =
            wait(dest, &other, Duration::from_millis(50), || other.try_lock()).expect_err("held");
        assert!(start.elapsed() >= Duration::from_millis(50));
        let message = format!("{err:#}");
        assert!(
            message.contains(&format!("a render, pid {}", std::process::id())),
            "{message}"
        );
        assert!(message.contains(dest.as_str()), "{message}");
        drop(held);
        other.try_lock().expect("free again");
        assert_eq!(
            std::fs::read_dir(dest).expect("lists").count(),
            0,
            "no file made"
        );
    }

    #[test]
    fn a_lock_file_of_an_older_release_goes_and_shared_locks_create_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = Utf8Path::from_path(dir.path()).expect("utf8");
        let missing = dest.join("missing");
        assert!(DirLock::shared_if_present(&missing).expect("ok").is_none());
        assert!(!missing.exists());
        let shared = DirLock::shared_if_present(dest)
            .expect("ok")
            .expect("exists");
        let also = DirLock::shared_if_present(dest)
            .expect("ok")
            .expect("shared");
        drop((shared, also));
        std::fs::write(dest.join(names::LEGACY_LOCK), "").expect("old lock file");
        drop(DirLock::exclusive(dest).expect("locks"));
        assert_eq!(std::fs::read_dir(dest).expect("lists").count(), 0);
    }

    #[test]
    fn the_holder_is_read_from_proc_locks() {
        let dev = rustix::fs::makedev(0xfd, 1);
        let locks = "\
1: POSIX  ADVISORY  WRITE 11 fd:01:99 0 EOF
2: FLOCK  ADVISORY  WRITE 22 00:2a:99 0 EOF
2: -> FLOCK  ADVISORY  WRITE 33 fd:01:99 0 EOF
3: FLOCK  ADVISORY  READ 44 fd:01:99 0 EOF
4: FLOCK  ADVISORY  WRITE 55 fd:01:100 0 EOF
";
        // The same device and inode first, skipping POSIX locks and waiters.
        assert_eq!(
            holder_in(locks, dev, 99).as_deref(),
            Some("a --check or --diff, pid 44")
        );
        // Only the inode matches: the first such holder.
        assert_eq!(
            holder_in(locks, rustix::fs::makedev(8, 2), 99).as_deref(),
            Some("a render, pid 22")
        );
        assert_eq!(holder_in(locks, dev, 7), None);
        assert_eq!(holder_in("", dev, 99), None);
    }
}
