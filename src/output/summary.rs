//! The machine-readable outputs: `render --output json` (what was, or with `--check` would be,
//! written) and `platforms --output json`. Pure: built from a [`Plan`] and the provider
//! catalogue. The shapes are a contract with the installer's asset code (README "JSON output"):
//! extend them, never rename or drop a field.

use crate::catalogue::Catalogue;
use crate::output::{Change, Plan, Tree};
use ccm_catalogue::platform::Platform;
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the JSON shapes below; raised only for a change that is not an addition.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// `render --output json`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RenderSummary {
    /// [`FORMAT_VERSION`].
    pub(crate) format_version: u32,
    /// `--dest-dir` as given; null when only `--ignition` was.
    pub(crate) dest_dir: Option<String>,
    /// True with `--check`: nothing was written, `files` says what a write would do.
    pub(crate) dry_run: bool,
    /// Whether anything changed (or, with `dryRun`, would change).
    pub(crate) changed: bool,
    /// Every rendered file and every removed file, sorted by path.
    pub(crate) files: Vec<FileSummary>,
    /// Files under the output folders that this render does not produce and that stay (all such
    /// files without `--prune`; symbolic links even with it).
    pub(crate) left_in_place: Vec<String>,
    /// Warnings also printed on stderr.
    pub(crate) warnings: Vec<String>,
    /// The OpenShift release rendered for (`4.22`): `--release`, the `--images` ImageStream's
    /// release, or the newest (`ccm-render releases`).
    pub(crate) release: String,
    /// With `--check`: true when a crashed run left an update half done in `destDir`, which the
    /// next render completes (`files` compares with the directory as it is). Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) interrupted_update: bool,
    /// With `--check`: temporary files a crashed run left, which the next render removes.
    /// Absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) temporary_files: Vec<String>,
    /// With `--ignition`: the Ignition config and the files it lays down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ignition: Option<IgnitionSummary>,
}

/// The `ignition` object of [`RenderSummary`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IgnitionSummary {
    /// `--ignition` as given.
    pub(crate) path: String,
    /// `ignition.version` written.
    pub(crate) version: String,
    /// True with `--check`: nothing was written.
    pub(crate) dry_run: bool,
    /// Whether the file changed (or, with `dryRun`, would change).
    pub(crate) changed: bool,
    /// Every file of the config, and every file of the old config it drops, by node path.
    pub(crate) files: Vec<IgnitionFileSummary>,
}

/// One file of [`IgnitionSummary`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IgnitionFileSummary {
    /// Absolute path on the bootstrap node.
    pub(crate) path: String,
    /// `added`, `changed`, `unchanged` or `removed`: how the existing config differed.
    pub(crate) status: &'static str,
    /// Mode on the node, four octal digits.
    pub(crate) mode: Option<String>,
}

fn status_word(change: Change) -> &'static str {
    match change {
        Change::Added => "added",
        Change::Changed => "changed",
        Change::Unchanged => "unchanged",
        Change::Removed => "removed",
    }
}

/// Builds the `ignition` object from the comparison of the config with the existing file (paths
/// in `plan` are node paths without their leading `/`).
pub(crate) fn ignition(
    plan: &Plan,
    path: &str,
    version: &str,
    dry_run: bool,
    changed: bool,
) -> IgnitionSummary {
    IgnitionSummary {
        path: path.to_string(),
        version: version.to_string(),
        dry_run,
        changed,
        files: plan
            .entries
            .iter()
            .map(|entry| IgnitionFileSummary {
                path: format!("/{}", entry.path),
                status: status_word(entry.change),
                mode: entry
                    .new
                    .as_ref()
                    .or(entry.old.as_ref())
                    .map(|f| format!("{:04o}", f.mode)),
            })
            .collect(),
    }
}

/// `placements --output json`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlacementsSummary {
    /// [`FORMAT_VERSION`].
    pub(crate) format_version: u32,
    /// The map's folders in use, in the stage's order.
    pub(crate) folders: Vec<PlacementSummary>,
    /// With `--dest-dir`: every file, in the stage's order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) files: Option<Vec<PlacementSummary>>,
}

/// One line of `placements`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlacementSummary {
    /// Relative to `--dest-dir`.
    pub(crate) source: String,
    /// Absolute on the node.
    pub(crate) target: String,
    /// Mode of the file(s) on the node.
    pub(crate) mode: String,
    /// Mode of the folder on the node.
    pub(crate) dir_mode: String,
}

/// Builds `placements --output json`.
pub(crate) fn placements(
    manifests: bool,
    placed: Option<&[crate::output::placement::Placed]>,
) -> PlacementsSummary {
    PlacementsSummary {
        format_version: FORMAT_VERSION,
        folders: crate::output::placement::active(manifests)
            .map(|p| PlacementSummary {
                source: p.source.to_string(),
                target: p.target.to_string(),
                mode: format!("{:04o}", p.mode),
                dir_mode: format!("{:04o}", p.dir_mode),
            })
            .collect(),
        files: placed.map(|placed| {
            placed
                .iter()
                .map(|p| PlacementSummary {
                    source: p.source.to_string(),
                    target: p.target.to_string(),
                    mode: format!("{:04o}", p.mode),
                    dir_mode: format!("{:04o}", p.dir_mode),
                })
                .collect()
        }),
    }
}

/// One file of [`RenderSummary`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FileSummary {
    /// Path relative to `--dest-dir`, with `/`.
    pub(crate) path: String,
    /// `added`, `changed`, `unchanged` or `removed`: how the directory differed from the render.
    pub(crate) status: &'static str,
    /// Permission bits as four octal digits (`0644`, `0600`); of the removed file for `removed`.
    pub(crate) mode: Option<String>,
    /// The object's `apiVersion` (files under bootstrap/ and manifests/ only, as every field
    /// below).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) api_version: Option<String>,
    /// The object's `kind`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) kind: Option<String>,
    /// The object's `metadata.name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    /// The object's `metadata.namespace` (absent for cluster-scoped objects).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) namespace: Option<String>,
}

/// Builds the `render --output json` summary.
pub(crate) fn render(
    plan: &Plan,
    tree: &Tree,
    dest_dir: Option<&str>,
    dry_run: bool,
    warnings: &[String],
    release: &str,
) -> RenderSummary {
    let files = plan
        .entries
        .iter()
        .map(|entry| {
            let object = tree.objects.get(&entry.path);
            let file = entry.new.as_ref().or(entry.old.as_ref());
            FileSummary {
                path: entry.path.to_string(),
                status: match entry.change {
                    Change::Added => "added",
                    Change::Changed => "changed",
                    Change::Unchanged => "unchanged",
                    Change::Removed => "removed",
                },
                mode: file.map(|f| format!("{:04o}", f.mode)),
                api_version: object.map(|o| o.api_version.clone()),
                kind: object.map(|o| o.kind.clone()),
                name: object.map(|o| o.name.clone()),
                namespace: object.and_then(|o| o.namespace.clone()),
            }
        })
        .collect();
    RenderSummary {
        format_version: FORMAT_VERSION,
        dest_dir: dest_dir.map(ToString::to_string),
        dry_run,
        changed: plan.has_changes(),
        files,
        left_in_place: plan.left.iter().map(ToString::to_string).collect(),
        warnings: warnings.to_vec(),
        release: release.to_string(),
        interrupted_update: plan.leftovers.journal.is_some(),
        temporary_files: plan
            .leftovers
            .temporary
            .iter()
            .map(ToString::to_string)
            .collect(),
        ignition: None,
    }
}

/// `platforms --output json`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlatformsSummary {
    /// [`FORMAT_VERSION`].
    pub(crate) format_version: u32,
    /// One row per platform and provider (Azure has two: public clouds and Azure Stack Hub), in
    /// the order of `ccm-render platforms`.
    pub(crate) platforms: Vec<PlatformSummary>,
}

/// One platform of [`PlatformsSummary`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlatformSummary {
    /// Infrastructure `status.platformStatus.type`.
    pub(crate) platform: String,
    /// Whether ccm-render renders a CCM for it; when false, every field below is absent.
    pub(crate) ccm: bool,
    /// The provider folder under assets/.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) provider: Option<String>,
    /// For Azure: the `status.platformStatus.azure.cloudName` that selects this provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) azure_cloud_name: Option<String>,
    /// For External: the `spec.platformSpec.external.platformName` that selects this provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) external_platform_name: Option<String>,
    /// The CCM's `--cloud-provider` name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cloud_provider: Option<String>,
    /// The images.json keys it needs, sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) image_keys: Option<Vec<String>>,
    /// The image run for an images.json key that images.json lacks (provider.yaml
    /// `spec.defaultImages`), by key; absent when the provider pins none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) default_images: Option<BTreeMap<String, String>>,
    /// How its cloud config is handled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cloud_config: Option<CloudConfigSummary>,
    /// The host files its bootstrap pod reads, in the order of its descriptor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bootstrap_host_files: Option<Vec<HostFileSummary>>,
}

/// [`PlatformSummary::cloud_config`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CloudConfigSummary {
    /// The transform applied (`aws`, `azure`, `azurestack`, `openstack`, `vsphere`, `none`).
    pub transform: ccm_catalogue::providers::Transform,
    /// The format of `config/cloud.conf`: `ini`, `json`, `yaml`, or `as-given` when the config
    /// passes through unchanged and the provider does not declare its format.
    pub(crate) format: &'static str,
    /// The files written under `DIR/config/`: `cloud.conf`, then any other source key the
    /// bootstrap pod reads (Azure Stack Hub's `endpoints.conf`).
    pub(crate) files: Vec<String>,
}

/// [`PlatformSummary::bootstrap_host_files`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HostFileSummary {
    /// The path on the bootstrap host.
    pub(crate) path: String,
    /// What puts it there.
    pub(crate) source: String,
}

/// The format of a provider's `config/cloud.conf`: what its transform writes, else what its
/// descriptor declares, else `as-given`.
pub(crate) fn cloud_config_format(
    spec: &ccm_catalogue::providers::CloudConfigSpec,
) -> &'static str {
    ccm_catalogue::providers::ConfigFormat::of_transform(spec.transform)
        .or(spec.format)
        .map_or("as-given", ccm_catalogue::providers::ConfigFormat::name)
}

/// Every known platform with its providers, in openshift/api's order ([`Platform::ALL`]); the table of
/// `ccm-render platforms` is printed from the same rows.
pub(crate) fn platforms(catalogue: &Catalogue) -> PlatformsSummary {
    let mut rows = Vec::new();
    for platform in Platform::ALL {
        let mut matching: Vec<_> = catalogue
            .providers
            .values()
            .filter(|p| p.spec().platform == platform)
            .collect();
        // The provider without a cloud name (public Azure) first.
        matching.sort_by_key(|p| p.spec().azure_cloud_name.is_some());
        if matching.is_empty() {
            rows.push(PlatformSummary {
                platform: platform.to_string(),
                ccm: false,
                provider: None,
                azure_cloud_name: None,
                external_platform_name: None,
                cloud_provider: None,
                image_keys: None,
                default_images: None,
                cloud_config: None,
                bootstrap_host_files: None,
            });
        }
        for provider in matching {
            let spec = provider.spec();
            let mut keys: Vec<String> = spec.images.values().cloned().collect();
            keys.sort_unstable();
            keys.dedup();
            let defaults: BTreeMap<String, String> = spec
                .default_images
                .iter()
                .filter_map(|(container, image)| {
                    Some((spec.images.get(container)?.clone(), image.clone()))
                })
                .collect();
            let files = std::iter::once("cloud.conf".to_string())
                .chain(spec.cloud_config.config_files.values().cloned())
                .collect();
            rows.push(PlatformSummary {
                platform: platform.to_string(),
                ccm: true,
                provider: Some(provider.name().to_string()),
                azure_cloud_name: spec.azure_cloud_name.clone(),
                external_platform_name: spec.external_platform_name.clone(),
                cloud_provider: Some(spec.cloud_provider.clone()),
                image_keys: Some(keys),
                default_images: (!defaults.is_empty()).then_some(defaults),
                cloud_config: Some(CloudConfigSummary {
                    transform: spec.cloud_config.transform,
                    format: cloud_config_format(&spec.cloud_config),
                    files,
                }),
                bootstrap_host_files: Some(
                    spec.bootstrap
                        .host_files
                        .iter()
                        .map(|f| HostFileSummary {
                            path: f.path.clone(),
                            source: f.source.clone(),
                        })
                        .collect(),
                ),
            });
        }
    }
    PlatformsSummary {
        format_version: FORMAT_VERSION,
        platforms: rows,
    }
}

/// `releases --output json`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReleasesSummary {
    /// [`FORMAT_VERSION`].
    pub(crate) format_version: u32,
    /// The release `render` uses without `--release` or a release ImageStream.
    pub(crate) default: String,
    /// Every release, oldest first.
    pub(crate) releases: Vec<ReleaseSummary>,
}

/// One release of [`ReleasesSummary`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReleaseSummary {
    /// `X.Y`.
    pub(crate) name: String,
    /// Other versions rendered as this release.
    pub(crate) aliases: Vec<String>,
    /// The CCCMO branch and commit reproduced.
    pub cccmo: ccm_catalogue::releases::Cccmo,
    /// The release before it (absent for the oldest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) previous: Option<String>,
    /// What upgrading from `previous` to this release changes (empty for the oldest).
    pub(crate) changes: Vec<String>,
}

/// Builds the `releases` summary.
pub(crate) fn releases(all: &crate::catalogue::Releases) -> ReleasesSummary {
    let releases = all
        .all()
        .iter()
        .rev()
        .map(|release| {
            let previous = all.previous(release);
            ReleaseSummary {
                name: release.name.clone(),
                aliases: release.aliases.clone(),
                cccmo: release.cccmo.clone(),
                previous: previous.map(|p| p.name.clone()),
                changes: previous.map(|p| p.upgrade.clone()).unwrap_or_default(),
            }
        })
        .collect();
    ReleasesSummary {
        format_version: FORMAT_VERSION,
        default: all.newest().name.clone(),
        releases,
    }
}

/// `releases` as text: a table, then what each release changes.
pub(crate) fn releases_text(summary: &ReleasesSummary) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<8} {:<9} {:<14} {:<11} ALSO",
        "RELEASE", "CCCMO", "BRANCH", "DATE"
    );
    for release in &summary.releases {
        let mut also = release.aliases.join(", ");
        if release.name == summary.default {
            also = if also.is_empty() {
                "(default)".to_string()
            } else {
                format!("{also} (default)")
            };
        }
        let line = format!(
            "{:<8} {:<9} {:<14} {:<11} {also}",
            release.name, release.cccmo.commit, release.cccmo.branch, release.cccmo.date
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "\nWhat each release changes from the one before:");
    for release in &summary.releases {
        let Some(previous) = &release.previous else {
            continue;
        };
        let _ = writeln!(out, "  {previous} -> {}:", release.name);
        for change in &release.changes {
            let _ = writeln!(out, "    - {change}");
        }
    }
    out
}
