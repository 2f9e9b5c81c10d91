//! Editing the bash script that CCCMO's containers run (`command: [/bin/bash, -c, SCRIPT]`).
//!
//! The script ends in one `exec BINARY \` followed by one flag per line, each but the last
//! ending in ` \`. Edits work on those lines: set a flag's value, insert flags before a given
//! one (with the same indentation, as CCCMO's `{{- if .tlsCipherSuites }}` blocks do), remove a
//! flag. Every value put in a script has been validated by its input module for the characters
//! it may hold; this module still refuses line breaks, which would end the command.

use anyhow::{Result, bail};

/// A script, as lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    lines: Vec<String>,
    trailing_newline: bool,
}

const CONTINUATION: &str = " \\";

impl Script {
    /// Splits a script into lines.
    pub fn parse(text: &str) -> Self {
        let trailing_newline = text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        Self {
            lines: body.split('\n').map(str::to_string).collect(),
            trailing_newline,
        }
    }

    /// Index of the first line that, without indentation, starts with `prefix`.
    fn find(&self, prefix: &str) -> Option<usize> {
        self.lines
            .iter()
            .position(|line| line.trim_start().starts_with(prefix))
    }

    /// The lines, as they are (indentation and continuation included).
    pub(crate) fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Whether a line starts with `prefix`.
    pub(crate) fn has(&self, prefix: &str) -> bool {
        self.find(prefix).is_some()
    }

    /// The arguments of the script's `exec` command (the program excluded): the words after
    /// `exec BINARY` on its line and on each line it continues onto with ` \`. Words split at
    /// blanks outside quotes, and keep their quotes. None when no line starts with `exec `.
    pub(crate) fn exec_arguments(&self) -> Option<Vec<String>> {
        let at = self.find("exec ")?;
        let mut words = Vec::new();
        for line in &self.lines[at..] {
            let trimmed = line.trim();
            let continued = trimmed.ends_with('\\');
            words.extend(split_words(trimmed.strip_suffix('\\').unwrap_or(trimmed)));
            if !continued {
                break;
            }
        }
        // `exec` and the program.
        Some(words.into_iter().skip(2).collect())
    }

    /// Sets the value of every line `--flag=VALUE` that starts with `flag_eq` (which ends in
    /// `=`), keeping its indentation and continuation. Returns whether a line was changed.
    pub fn set_flag(&mut self, flag_eq: &str, value: &str) -> Result<bool> {
        refuse_line_breaks(value)?;
        let mut changed = false;
        for line in &mut self.lines {
            let trimmed = line.trim_start();
            if trimmed.starts_with(flag_eq) {
                let indent = &line[..line.len() - trimmed.len()];
                let continued = trimmed.ends_with(CONTINUATION);
                let tail = if continued { CONTINUATION } else { "" };
                *line = format!("{indent}{flag_eq}{value}{tail}");
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Inserts `flags` (each a whole `--flag=value`) just before the line starting with
    /// `before`, at that line's indentation, each continued with ` \`.
    pub fn insert_before(&mut self, before: &str, flags: &[String]) -> Result<()> {
        for flag in flags {
            refuse_line_breaks(flag)?;
        }
        let Some(at) = self.find(before) else {
            bail!("the script has no line starting with {before:?}");
        };
        let indent: String = self.lines[at]
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect();
        let new_lines = flags
            .iter()
            .map(|flag| format!("{indent}{flag}{CONTINUATION}"));
        self.lines.splice(at..at, new_lines);
        Ok(())
    }

    /// Removes every line starting with `prefix`. When the removed line was the last flag, the
    /// line before it loses its continuation so the command still ends.
    pub fn remove(&mut self, prefix: &str) {
        while let Some(at) = self.find(prefix) {
            let was_last = !self.lines[at].trim_end().ends_with('\\');
            self.lines.remove(at);
            if was_last
                && at > 0
                && let Some(prev) = self.lines.get_mut(at - 1)
                && let Some(stripped) = prev.strip_suffix(CONTINUATION)
            {
                *prev = stripped.to_string();
            }
        }
    }
}

impl std::fmt::Display for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.lines.join("\n"))?;
        if self.trailing_newline {
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// Splits a line into words at blanks outside single or double quotes.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                word.push(c);
            }
            (Some(q), _) if c == q => {
                quote = None;
                word.push(c);
            }
            (None, c) if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn refuse_line_breaks(value: &str) -> Result<()> {
    if value.contains(['\n', '\r']) {
        bail!("refusing to put a line break into a container script");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "#!/bin/bash\nexec /bin/ccm \\\n  --feature-gates= \\\n  --leader-elect-resource-namespace=openshift-cloud-controller-manager \\\n  --node-labels=\"$(X)\" \\\n  --secure-port=0\n";

    #[test]
    fn set_flag_keeps_indentation_and_continuation() {
        let mut s = Script::parse(SCRIPT);
        assert!(s.set_flag("--feature-gates=", "A=true").expect("ok"));
        assert!(s.to_string().contains("\n  --feature-gates=A=true \\\n"));
        assert!(!s.set_flag("--absent=", "x").expect("ok"));
    }

    #[test]
    fn insert_before_uses_the_line_indentation() {
        let mut s = Script::parse(SCRIPT);
        s.insert_before(
            "--secure-port=0",
            &["--tls-min-version=VersionTLS12".into()],
        )
        .expect("found");
        assert!(
            s.to_string()
                .ends_with("  --tls-min-version=VersionTLS12 \\\n  --secure-port=0\n")
        );
    }

    #[test]
    fn insert_before_a_missing_line_is_an_error() {
        let mut s = Script::parse(SCRIPT);
        assert!(s.insert_before("--v=2", &["--x".into()]).is_err());
    }

    #[test]
    fn removing_the_last_flag_ends_the_command_on_the_previous_line() {
        let mut s = Script::parse(SCRIPT);
        s.remove("--secure-port=");
        assert!(s.to_string().ends_with("--node-labels=\"$(X)\"\n"), "{s}");
    }

    #[test]
    fn removing_a_middle_flag_keeps_the_rest() {
        let mut s = Script::parse(SCRIPT);
        s.remove("--node-labels=");
        assert!(!s.to_string().contains("node-labels"));
        assert!(s.to_string().ends_with(" \\\n  --secure-port=0\n"));
    }

    #[test]
    fn line_breaks_never_enter_a_script() {
        let mut s = Script::parse(SCRIPT);
        assert!(s.set_flag("--feature-gates=", "a\n--evil").is_err());
        assert!(
            s.insert_before("--secure-port=0", &["a\rb".into()])
                .is_err()
        );
    }

    #[test]
    fn exec_arguments_are_the_words_after_the_program_across_continued_lines() {
        let s = Script::parse(SCRIPT);
        assert_eq!(
            s.exec_arguments().expect("an exec line"),
            [
                "--feature-gates=",
                "--leader-elect-resource-namespace=openshift-cloud-controller-manager",
                "--node-labels=\"$(X)\"",
                "--secure-port=0"
            ]
        );
        let inline = Script::parse("X=1\nexec /bin/ccm --a=1 --b='x y' \\\n  --c\necho never\n");
        assert_eq!(
            inline.exec_arguments().expect("an exec line"),
            ["--a=1", "--b='x y'", "--c"]
        );
        assert_eq!(Script::parse("echo hi\n").exec_arguments(), None);
    }

    #[test]
    fn round_trip_is_exact() {
        assert_eq!(Script::parse(SCRIPT).to_string(), SCRIPT);
        assert_eq!(Script::parse("a\nb").to_string(), "a\nb");
    }
}
