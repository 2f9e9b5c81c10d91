//! How a command ends when it does not fail, and the process exit code it gives.

/// How a command ended, when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Success (0).
    Success,
    /// `--check`/`--diff` found something that would change, or `provider import` left
    /// something to carry by hand (1).
    Drift,
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        match status {
            ExitStatus::Success => Self::SUCCESS,
            ExitStatus::Drift => Self::from(1),
        }
    }
}
