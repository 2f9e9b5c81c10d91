//! `ccm-render platforms`: every platform, its providers and what each needs.

use super::exit::ExitStatus;
use super::pipeline::load_catalogue;
use super::term::{print_json, print_stdout};
use crate::commands::cli::{OutputFormat, PlatformsArgs};
use anyhow::Result;

pub(crate) fn run(args: &PlatformsArgs) -> Result<ExitStatus> {
    use std::fmt::Write as _;
    let catalogue = load_catalogue(args.provider_dir.as_deref())?;
    let summary = crate::output::summary::platforms(&catalogue);
    if args.output == OutputFormat::Json {
        print_json(&summary)?;
        return Ok(ExitStatus::Success);
    }
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{:<14} {:<15} {:<19} {:<22} IMAGES.JSON KEYS",
        "PLATFORM", "PROVIDER", "CCM", "CLOUD CONFIG"
    );
    for row in &summary.platforms {
        let (Some(provider), Some(cloud_provider), Some(keys), Some(config)) = (
            &row.provider,
            &row.cloud_provider,
            &row.image_keys,
            &row.cloud_config,
        ) else {
            let _ = writeln!(
                table,
                "{:<14} {:<15} {:<19} {:<22} -",
                row.platform, "-", "no", "-"
            );
            continue;
        };
        let ccm = format!("yes ({cloud_provider})");
        let transform = serde_json::to_value(config.transform)?;
        let config = format!(
            "{} ({})",
            transform.as_str().unwrap_or_default(),
            config.format
        );
        // A key with a default image shows it: `key (default IMAGE)`.
        let keys: Vec<String> = keys
            .iter()
            .map(
                |key| match row.default_images.as_ref().and_then(|d| d.get(key)) {
                    Some(image) => format!("{key} (default {image})"),
                    None => key.clone(),
                },
            )
            .collect();
        let _ = writeln!(
            table,
            "{:<14} {provider:<15} {ccm:<19} {config:<22} {}",
            row.platform,
            keys.join(", ")
        );
    }
    let _ = writeln!(
        table,
        "\nExternal platforms (spec.platformSpec.external.platformName, any case), used when status.platformStatus.external.cloudControllerManager.state is External:"
    );
    for provider in catalogue.providers.values() {
        if let Some(name) = &provider.spec().external_platform_name {
            let _ = writeln!(table, "  {name:<14} {}", provider.name());
        }
    }
    let _ = writeln!(table, "\nHost files each bootstrap pod reads:");
    for row in &summary.platforms {
        if let (Some(provider), Some(files)) = (&row.provider, &row.bootstrap_host_files) {
            let _ = writeln!(table, "  {provider}:");
            for file in files {
                let _ = writeln!(table, "    {}  ({})", file.path, file.source);
            }
        }
    }
    print_stdout(table.as_bytes())?;
    Ok(ExitStatus::Success)
}
