//! What `render --check` and `render --diff` print: the list of files a write would add, change
//! or remove, and a unified diff of each in git's layout (so pagers and tools such as `delta`
//! colour it as they do `git diff`). Pure: it reads a [`Plan`] and returns text. Every file's
//! old and new text go through [`crate::output::redact`] first, so no credential reaches stdout.

use crate::output::redact;
use crate::output::{Change, Entry, File, Plan};
use std::fmt::Write as _;

/// ANSI styles, as `git diff` uses them.
#[derive(Debug, Clone, Copy)]
struct Palette {
    meta: &'static str,
    hunk: &'static str,
    removed: &'static str,
    added: &'static str,
    reset: &'static str,
}

const COLOUR: Palette = Palette {
    meta: "\x1b[1m",
    hunk: "\x1b[36m",
    removed: "\x1b[31m",
    added: "\x1b[32m",
    reset: "\x1b[0m",
};

const PLAIN: Palette = Palette {
    meta: "",
    hunk: "",
    removed: "",
    added: "",
    reset: "",
};

/// Lines of context around each change, as `diff -u` and `git diff`.
const CONTEXT: usize = 3;

/// The `--check` list: one line per folder to create and per file to add, change or remove;
/// first, what a crashed run left (`repair` for the journal of an update to complete,
/// `removed` for a stray temporary file).
pub(crate) fn check_list(plan: &Plan) -> String {
    let mut out = String::new();
    if let Some(journal) = &plan.leftovers.journal {
        let _ = writeln!(out, "repair   {journal}");
    }
    for temporary in &plan.leftovers.temporary {
        let _ = writeln!(out, "removed  {temporary}");
    }
    for folder in &plan.missing_folders {
        let _ = writeln!(out, "added    {folder}/");
    }
    for entry in &plan.entries {
        let word = match entry.change {
            Change::Unchanged => continue,
            Change::Added => "added   ",
            Change::Changed => "changed ",
            Change::Removed => "removed ",
        };
        let _ = write!(out, "{word} {}", entry.path);
        if let (Some(old), Some(new)) = (&entry.old, &entry.new)
            && old.mode != new.mode
        {
            let _ = write!(out, " (mode {:04o} -> {:04o})", old.mode, new.mode);
        }
        out.push('\n');
    }
    out
}

/// The `--diff` text: a unified diff of every file that would change, coloured when `colour`.
pub(crate) fn unified(plan: &Plan, colour: bool) -> String {
    unified_in(plan, "", colour)
}

/// [`unified`] for a plan of a folder `DIR/<folder>` (a `matrix` case): the paths shown start
/// with `folder`, while what is redacted is still decided by the path in the plan.
pub(crate) fn unified_in(plan: &Plan, folder: &str, colour: bool) -> String {
    let palette = if colour { COLOUR } else { PLAIN };
    let mut out = String::new();
    for entry in &plan.entries {
        if entry.change != Change::Unchanged {
            file_diff(&mut out, entry, folder, palette);
        }
    }
    out
}

fn file_diff(out: &mut String, entry: &Entry, folder: &str, p: Palette) {
    let path = entry.path.as_str();
    let shown = if folder.is_empty() {
        path.to_string()
    } else {
        format!("{folder}/{path}")
    };
    let meta = |out: &mut String, line: &str| {
        let _ = writeln!(out, "{}{line}{}", p.meta, p.reset);
    };
    meta(out, &format!("diff --git a/{shown} b/{shown}"));
    match (&entry.old, &entry.new) {
        (None, Some(new)) => meta(out, &format!("new file mode {}", git_mode(new))),
        (Some(old), None) => meta(out, &format!("deleted file mode {}", git_mode(old))),
        (Some(old), Some(new)) if old.mode != new.mode => {
            meta(out, &format!("old mode {}", git_mode(old)));
            meta(out, &format!("new mode {}", git_mode(new)));
        }
        _ => {}
    }
    let (old_bytes, new_bytes) = (bytes(entry.old.as_ref()), bytes(entry.new.as_ref()));
    if old_bytes == new_bytes {
        return;
    }
    if let Some(reason) = redact::hidden_reason(path) {
        let _ = writeln!(out, "{reason}");
        return;
    }
    let (Some(old_text), Some(new_text)) = (
        redact::for_display(path, old_bytes),
        redact::for_display(path, new_bytes),
    ) else {
        let _ = writeln!(out, "Binary files a/{shown} and b/{shown} differ");
        return;
    };
    if old_text == new_text {
        let _ = writeln!(out, "contents differ only in redacted values");
        return;
    }
    let from = if entry.old.is_some() {
        format!("a/{shown}")
    } else {
        "/dev/null".into()
    };
    let to = if entry.new.is_some() {
        format!("b/{shown}")
    } else {
        "/dev/null".into()
    };
    meta(out, &format!("--- {from}"));
    meta(out, &format!("+++ {to}"));
    let diff = similar::TextDiff::from_lines(&old_text, &new_text);
    let mut unified = diff.unified_diff();
    unified.context_radius(CONTEXT);
    for hunk in unified.iter_hunks() {
        let _ = writeln!(out, "{}{}{}", p.hunk, hunk.header(), p.reset);
        for change in hunk.iter_changes() {
            let (sign, style) = match change.tag() {
                similar::ChangeTag::Delete => ('-', p.removed),
                similar::ChangeTag::Insert => ('+', p.added),
                similar::ChangeTag::Equal => (' ', ""),
            };
            let line = change.value();
            let line = line.strip_suffix('\n').unwrap_or(line);
            let reset = if style.is_empty() { "" } else { p.reset };
            let _ = writeln!(out, "{style}{sign}{line}{reset}");
            if change.missing_newline() {
                let _ = writeln!(out, "\\ No newline at end of file");
            }
        }
    }
}

fn bytes(file: Option<&File>) -> &[u8] {
    file.map_or(&[][..], |f| f.bytes.as_slice())
}

/// A file mode as git writes it in a diff header (regular file, permission bits).
fn git_mode(file: &File) -> String {
    format!("100{:03o}", file.mode & 0o777)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str, mode: u32) -> File {
        File {
            bytes: text.as_bytes().to_vec(),
            mode,
        }
    }

    fn plan(entries: Vec<Entry>) -> Plan {
        Plan {
            entries,
            ..Plan::default()
        }
    }

    fn entry(path: &str, change: Change, old: Option<File>, new: Option<File>) -> Entry {
        Entry {
            path: path.into(),
            change,
            old,
            new,
        }
    }

    #[test]
    fn a_changed_file_gives_a_git_style_hunk() {
        let p = plan(vec![entry(
            "manifests/a.yaml",
            Change::Changed,
            Some(file("a: 1\nb: 2\n", 0o644)),
            Some(file("a: 1\nb: 3\n", 0o600)),
        )]);
        assert_eq!(
            unified(&p, false),
            "diff --git a/manifests/a.yaml b/manifests/a.yaml\nold mode 100644\nnew mode 100600\n--- a/manifests/a.yaml\n+++ b/manifests/a.yaml\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"
        );
        assert_eq!(
            check_list(&p),
            "changed  manifests/a.yaml (mode 0644 -> 0600)\n"
        );
    }

    #[test]
    fn colour_wraps_changed_lines_only_when_asked() {
        let p = plan(vec![entry(
            "config/cloud.conf",
            Change::Added,
            None,
            Some(file("x\n", 0o600)),
        )]);
        let coloured = unified(&p, true);
        assert!(coloured.contains("\x1b[32m+x\x1b[0m"), "{coloured:?}");
        assert!(!unified(&p, false).contains('\x1b'));
    }

    #[test]
    fn secrets_are_never_printed_old_or_new() {
        let p = plan(vec![
            entry(
                "secrets/clouds.yaml",
                Change::Changed,
                Some(file("password: old\n", 0o600)),
                Some(file("password: new\n", 0o600)),
            ),
            entry(
                "config/cloud.conf",
                Change::Changed,
                Some(file("[Global]\npassword = old\n", 0o600)),
                Some(file("[Global]\npassword = new\n", 0o600)),
            ),
        ]);
        let text = unified(&p, false);
        assert!(!text.contains(": old") && !text.contains(": new"), "{text}");
        assert!(!text.contains("= old") && !text.contains("= new"), "{text}");
        assert!(text.contains("contents redacted"), "{text}");
        assert!(
            text.contains("contents differ only in redacted values"),
            "{text}"
        );
    }

    #[test]
    fn unchanged_files_print_nothing() {
        let p = plan(vec![entry(
            "manifests/a.yaml",
            Change::Unchanged,
            Some(file("a\n", 0o644)),
            Some(file("a\n", 0o644)),
        )]);
        assert_eq!(unified(&p, true), "");
        assert_eq!(check_list(&p), "");
    }
}
