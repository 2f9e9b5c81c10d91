//! What a write did (or, for `--check`, would do), file by file.

use super::plan::{Change, Plan};
use camino::Utf8PathBuf;

/// What [`Dest::apply`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WriteReport {
    /// Files created or changed.
    pub(crate) written: Vec<Utf8PathBuf>,
    /// Files already as rendered.
    pub(crate) unchanged: Vec<Utf8PathBuf>,
    /// Files removed by `--prune`.
    pub(crate) removed: Vec<Utf8PathBuf>,
    /// Files under the output folders that this render does not produce and that were left in
    /// place (all of them without `--prune`; symbolic links and names that are not UTF-8 even
    /// with it).
    pub(crate) left: Vec<Utf8PathBuf>,
}

impl WriteReport {
    /// What carrying out `plan` does (or did).
    pub(crate) fn of(plan: &Plan) -> Self {
        let mut report = Self {
            left: plan.left.clone(),
            ..Self::default()
        };
        for entry in &plan.entries {
            match entry.change {
                Change::Added | Change::Changed => report.written.push(entry.path.clone()),
                Change::Unchanged => report.unchanged.push(entry.path.clone()),
                Change::Removed => report.removed.push(entry.path.clone()),
            }
        }
        report
    }
}
