//! `ccm-render releases`: the releases ccm-render renders for.

use super::exit::ExitStatus;
use super::term::{print_json, print_stdout};
use crate::commands::cli::{OutputFormat, ReleasesArgs};
use anyhow::Result;

pub(crate) fn run(args: &ReleasesArgs) -> Result<ExitStatus> {
    let summary = crate::output::summary::releases(crate::catalogue::Releases::builtin()?);
    if args.output == OutputFormat::Json {
        print_json(&summary)?;
    } else {
        print_stdout(crate::output::summary::releases_text(&summary).as_bytes())?;
    }
    Ok(ExitStatus::Success)
}
