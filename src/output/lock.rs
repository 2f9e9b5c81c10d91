//! Runs on one `--dest-dir` take turns: a render holds an exclusive `flock(2)` on
//! [`names::LOCK`] from before its repair of a crashed run until its update is done, and a
//! `--check`/`--diff` holds a shared one while it reads, so it never reads an update half done.
//!
//! `flock` comes from the standard library (`File::lock`, stable since Rust 1.89, the crate's
//! minimum): the kernel drops it when its holder dies, so a SIGKILL never leaves the directory
//! locked, and no crate is needed. The lock file is never removed: removing it would let a run
//! lock a file that another run has already replaced. It stays empty except while a render holds
//! it, when it holds `pid <N>` so that a run that gives up can name the holder.
//!
//! A run waits at most [`DEFAULT_TIMEOUT`], or the seconds in the environment variable
//! [`TIMEOUT_VAR`], then exits 2 naming the directory and the holder.

use super::names;
use anyhow::{Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use std::fs::TryLockError;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::time::{Duration, Instant};

/// How long a run waits for the lock by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The environment variable that sets how long a run waits for the lock, in seconds
/// (a decimal number such as `5` or `0.5`; `0` gives up at once).
pub const TIMEOUT_VAR: &str = "CCM_RENDER_LOCK_TIMEOUT";

/// A held lock on a directory, released when dropped (or when the process ends).
#[derive(Debug)]
pub(super) struct DirLock {
    file: std::fs::File,
    /// Whether this run wrote its pid into the lock file (and empties it on release).
    wrote_pid: bool,
}

impl DirLock {
    /// Takes the exclusive lock of `dest`, creating the lock file if needed.
    pub(super) fn exclusive(dest: &Utf8Path) -> Result<Self> {
        let path = names::join(dest, names::LOCK);
        let timeout = timeout()?;
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true).mode(0o644);
        let (file, writable) = match options.open(&path) {
            Ok(file) => (file, true),
            // Someone else's lock file in a directory this run may still write to: flock does
            // not need write access.
            Err(err) if err.kind() == std::io::ErrorKind::PermissionDenied && path.is_file() => {
                let file = std::fs::File::open(&path)
                    .map_err(|err| anyhow!("--dest-dir {dest}: opening {path}: {err}"))?;
                (file, false)
            }
            Err(err) => bail!("--dest-dir {dest}: creating the lock file {path}: {err}"),
        };
        wait(dest, &path, timeout, || file.try_lock())?;
        let mut lock = Self {
            file,
            wrote_pid: false,
        };
        if writable {
            // Best effort: the pid only makes a message better.
            let pid = format!("pid {}\n", std::process::id());
            lock.wrote_pid =
                lock.file.set_len(0).is_ok() && (&lock.file).write_all(pid.as_bytes()).is_ok();
        }
        Ok(lock)
    }

    /// Takes a shared lock of `dest` when it has a lock file, without creating or writing
    /// anything; None when there is no lock file (no render ever ran there with a lock).
    pub(super) fn shared_if_present(dest: &Utf8Path) -> Result<Option<Self>> {
        let path = names::join(dest, names::LOCK);
        let file = match std::fs::File::open(&path) {
            Ok(file) => file,
            Err(err) if super::fs::missing(&err) => return Ok(None),
            Err(err) => bail!("--dest-dir {dest}: opening {path}: {err}"),
        };
        wait(dest, &path, timeout()?, || file.try_lock_shared())?;
        Ok(Some(Self {
            file,
            wrote_pid: false,
        }))
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        if self.wrote_pid {
            // Empty again, so that a lock file with a pid always means a holder or a crash.
            let _ = self.file.set_len(0);
        }
        let _ = self.file.unlock();
    }
}

/// Calls `try_lock` until it succeeds or `timeout` passes.
fn wait(
    dest: &Utf8Path,
    path: &Utf8PathBuf,
    timeout: Duration,
    try_lock: impl Fn() -> Result<(), TryLockError>,
) -> Result<()> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        match try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(err)) => bail!("--dest-dir {dest}: locking {path}: {err}"),
        }
        let waited = start.elapsed();
        if waited >= timeout {
            bail!(
                "--dest-dir {dest}: another run holds {path} ({}); gave up after {:.1} s (set {TIMEOUT_VAR} to wait longer)",
                holder(path),
                waited.as_secs_f64()
            );
        }
        std::thread::sleep(pause.min(timeout.saturating_sub(waited)));
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

/// Who holds the lock, as its lock file says.
fn holder(path: &Utf8Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    match text.trim().strip_prefix("pid ") {
        Some(pid) if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) => {
            format!("a render, pid {pid}")
        }
        _ => "a --check or --diff, or a render starting".to_string(),
    }
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
        // A second open file description of the same file: flock treats it as another holder.
        let other = std::fs::File::open(dest.join(names::LOCK)).expect("open");
        let start = Instant::now();
        let err = wait(
            dest,
            &dest.join(names::LOCK),
            Duration::from_millis(50),
            || other.try_lock(),
        )
        .expect_err("held");
        assert!(start.elapsed() >= Duration::from_millis(50));
        let message = err.to_string();
        assert!(
            message.contains(&format!("pid {}", std::process::id())),
            "{message}"
        );
        assert!(message.contains(dest.as_str()), "{message}");
        drop(held);
        assert_eq!(
            std::fs::read(dest.join(names::LOCK)).expect("kept").len(),
            0,
            "emptied on release"
        );
        other.try_lock().expect("free again");
    }

    #[test]
    fn shared_locks_create_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dest = Utf8Path::from_path(dir.path()).expect("utf8");
        assert!(DirLock::shared_if_present(dest).expect("ok").is_none());
        assert!(!dest.join(names::LOCK).exists());
    }
}
