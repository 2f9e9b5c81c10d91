//! `ccm-render placements`: where each rendered file lands on the bootstrap node.

use super::exit::ExitStatus;
use super::term::{print_json, print_stdout};
use crate::commands::cli::{OutputFormat, PlacementsArgs};
use anyhow::Result;

/// `placements`: the map, or with `--dest-dir` every file of a render, for a shell to install.
pub(crate) fn run(args: &PlacementsArgs) -> Result<ExitStatus> {
    let placed = match &args.dest_dir {
        Some(dest) => Some(crate::output::placement::read::placed_files(
            dest,
            args.manifests,
        )?),
        None => None,
    };
    if args.output == OutputFormat::Json {
        print_json(&crate::output::summary::placements(
            args.manifests,
            placed.as_deref(),
        ))?;
    } else {
        let text = match &placed {
            Some(placed) => crate::output::placement::file_lines(placed),
            None => crate::output::placement::map_lines(args.manifests),
        };
        print_stdout(text.as_bytes())?;
    }
    Ok(ExitStatus::Success)
}
