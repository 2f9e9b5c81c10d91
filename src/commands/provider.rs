//! `ccm-render provider new` and `provider check`.

use super::exit::ExitStatus;
use super::pipeline::read_providers;
use super::term::print_stdout;
use crate::catalogue::Catalogue;
use anyhow::{Context as _, Result};
use camino::Utf8Path;

pub(crate) fn check(dir: &Utf8Path) -> Result<ExitStatus> {
    use std::fmt::Write as _;
    let providers = read_providers(dir)?;
    if providers.is_empty() {
        anyhow::bail!("{dir}: holds no provider folder");
    }
    let mut catalogue = Catalogue::builtin()?;
    let mut report = String::new();
    for provider in &providers {
        let spec = provider.spec();
        let serves = spec.external_platform_name.as_deref().map_or_else(
            || spec.platform.to_string(),
            |name| format!("External platformName {name}"),
        );
        let _ = writeln!(
            report,
            "ok: {} (provider {}, serves {serves}, --cloud-provider={})",
            provider.origin,
            provider.name(),
            spec.cloud_provider
        );
    }
    // Also what render would refuse: two providers serving the same platform.
    for note in catalogue.add(providers)? {
        let _ = writeln!(report, "note: {note}");
    }
    print_stdout(report.as_bytes())?;
    Ok(ExitStatus::Success)
}

pub(crate) fn new(name: &str, dir: &Utf8Path) -> Result<ExitStatus> {
    ccm_catalogue::validate::dns_label(name).context("NAME")?;
    let dest = dir.join(name);
    if ccm_catalogue::provider_dir::has_entries(&dest) {
        anyhow::bail!("{dest}: exists and is not empty; provider new never overwrites a provider");
    }
    let tree = crate::commands::scaffold::tree(name, dest.as_str())?;
    let folder = crate::output::Dest::open(&dest)?;
    folder.apply(&folder.plan(&tree, false)?)?;
    eprintln!(
        "ccm-render: wrote provider {name} in {dest}; edit it, then: ccm-render provider check {dest}"
    );
    Ok(ExitStatus::Success)
}
