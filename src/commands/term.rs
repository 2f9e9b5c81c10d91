//! What a command prints: stdout that may be a closed pipe, and one-line notes on stderr.

use anyhow::Result;

/// The closing lines of a render on stderr: what was written where.
/// Writes one line to stderr in one write: `eprintln!` writes each piece of its format on its
/// own (stderr is unbuffered), a dozen system calls for the summary line.
pub(crate) fn say(line: &str) {
    use std::io::Write as _;
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    let _ = std::io::stderr().write_all(text.as_bytes());
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
            Err(anyhow::anyhow!("writing to stdout: {err}"))
        }
        _ => Ok(()),
    }
}
