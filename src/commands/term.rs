//! What a command prints: stdout that may be a closed pipe, and one-line notes on stderr.

use crate::catalogue::cccmo::{Checkout, CheckoutRelease};
use anyhow::{Context as _, Result};

/// Writes one line to stderr in one write: `eprintln!` writes each piece of its format on its
/// own (stderr is unbuffered), a dozen system calls for the summary line.
pub(crate) fn say(line: &str) {
    use std::io::Write as _;
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// What `--check`/`--diff` found in a folder or file they compared.
pub(crate) enum Checked<'a> {
    /// Something would change: what (`3 files would change (...)`).
    OutOfDate(&'a str),
    /// Nothing would change: what it holds (`8 files`).
    UpToDate(&'a str),
}

/// The line `--check`/`--diff` end with on stderr for `what` (a folder or file), rendered for
/// OpenShift `release` when one release was.
pub(crate) fn say_checked(what: &str, release: Option<&str>, checked: &Checked) {
    let release = release
        .map(|r| format!(" for OpenShift {r}"))
        .unwrap_or_default();
    say(&match checked {
        Checked::OutOfDate(changes) => format!(
            "ccm-render: {what} is out of date{release}: {changes}; run without --check/--diff to update it"
        ),
        Checked::UpToDate(held) => format!("ccm-render: {what} is up to date{release} ({held})"),
    });
}

pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    print_stdout(text.as_bytes())
}

/// Writes to stdout; a closed pipe (`ccm-render platforms | head`) is not an error.
pub(crate) fn print_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(err).context("writing to stdout")
        }
        _ => Ok(()),
    }
}

/// Says on stderr which release a `--cccmo-dir` checkout renders as and why, and the Go files
/// that differ from that release's (ccm-render then applies the release's Go side).
pub(crate) fn say_checkout_release(found: &CheckoutRelease, checkout: &Checkout) {
    let cccmo = &found.release.cccmo;
    if found.told_by_go_files {
        say(&format!(
            "ccm-render: --cccmo-dir {} is CCCMO {} {}: its Go files are that release head's",
            checkout.root, cccmo.branch, cccmo.commit
        ));
    }
    if !found.go_changes.is_empty() {
        say(&format!(
            "warning: --cccmo-dir {}: {} Go files differ from CCCMO {} {} ({}); ccm-render applies that release's Go side, not theirs",
            checkout.root,
            found.go_changes.len(),
            cccmo.branch,
            cccmo.commit,
            found.go_changes.join(", ")
        ));
    }
}
