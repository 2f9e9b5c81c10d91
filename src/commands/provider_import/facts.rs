//! The CCCMO branch, commit and date a release file records (`spec.cccmo`): from the flags
//! (`--branch`, `--commit`, `--date`), else from git when the checkout is a git working copy
//! (its root holds `.git`), else unknown. A plain folder of templates cannot tell them.

use anyhow::{Result, bail};
use camino::Utf8Path;

/// What the command line says of the checkout's commit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Told {
    /// `--branch`.
    pub(crate) branch: Option<String>,
    /// `--commit`.
    pub(crate) commit: Option<String>,
    /// `--date`.
    pub(crate) date: Option<String>,
}

/// The checkout's branch, commit and date, each where known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The branch (`release-4.24`).
    pub(crate) branch: Option<String>,
    /// The commit, abbreviated to eight hex digits as the release files hold it.
    pub(crate) commit: Option<String>,
    /// The commit's date (`YYYY-MM-DD`).
    pub(crate) date: Option<String>,
}

/// The flags checked, over what git says of `dir`.
pub(crate) fn facts(dir: &Utf8Path, told: &Told) -> Result<Facts> {
    if let Some(commit) = &told.commit
        && (commit.len() < 7 || !commit.chars().all(|c| c.is_ascii_hexdigit()))
    {
        bail!("--commit {commit:?}: not a commit (7 or more hex digits)");
    }
    if let Some(date) = &told.date
        && !is_date(date)
    {
        bail!("--date {date:?}: not a date (YYYY-MM-DD)");
    }
    if let Some(branch) = &told.branch
        && (branch.is_empty() || branch.contains(char::is_whitespace))
    {
        bail!("--branch {branch:?}: not a branch name");
    }
    let git = from_git(dir);
    Ok(Facts {
        branch: told.branch.clone().or(git.branch),
        commit: told.commit.clone().or(git.commit),
        date: told.date.clone().or(git.date),
    })
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

/// What git says of the working copy at `dir` (nothing when it is none, or git is missing).
fn from_git(dir: &Utf8Path) -> Facts {
    if !dir.join(".git").exists() {
        return Facts::default();
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !text.is_empty()).then_some(text)
    };
    let date = git(&["log", "-1", "--format=%cs", "HEAD"]).filter(|d| is_date(d));
    Facts {
        branch: git(&["symbolic-ref", "--short", "-q", "HEAD"]),
        commit: date
            .is_some()
            .then(|| git(&["log", "-1", "--abbrev=8", "--format=%h", "HEAD"]))
            .flatten(),
        date,
    }
}
