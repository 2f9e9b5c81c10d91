//! `ccm-render compare-hosted PLATFORM`: the hosted CCM of a platform against its standalone
//! one, from the samples `matrix` renders (the platform's conformance inputs for the
//! standalone render, the default HostedControlPlane of `testdata/hosted/` for the hosted one,
//! or with `--hosted-cluster` the user's HostedCluster, rendered as `render --hosted-cluster`
//! renders it), field by field (`output/hosted_compare.rs`).

use super::super::exit::ExitStatus;
use crate::commands::cli::PairedPlatform;
use crate::config::InputFiles;
use crate::config::hosted::HostedConfig;
use crate::output::hosted_compare::{facts, report};
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::platform::HostedPlatform;

/// A ConfigMap or Secret by kind and name.
#[derive(Debug, Clone, Copy)]
struct ConfigRef {
    /// `ConfigMap` or `Secret`.
    kind: &'static str,
    /// Its `metadata.name`.
    name: &'static str,
}

/// A platform with both a standalone and a hosted CCM, and the cloud config object each reads.
struct Pairing {
    /// The platform type.
    platform: PairedPlatform,
    /// The built-in provider of its standalone CCM (the samples' folder too).
    provider: &'static str,
    /// The standalone CCM's cloud config object.
    standalone_config: ConfigRef,
    /// The hosted CCM's cloud config object.
    hosted_config: ConfigRef,
}

/// The cloud config every standalone CCM reads (CCCMO's).
const CLOUD_CONF: ConfigRef = ConfigRef {
    kind: "ConfigMap",
    name: "cloud-conf",
};

/// The platforms with both a standalone and a hosted CCM.
const PLATFORMS: &[Pairing] = &[
    Pairing {
        platform: PairedPlatform::Aws,
        provider: "aws",
        standalone_config: CLOUD_CONF,
        hosted_config: ConfigRef {
            kind: "ConfigMap",
            name: "aws-cloud-config",
        },
    },
    Pairing {
        platform: PairedPlatform::Azure,
        provider: "azure",
        standalone_config: CLOUD_CONF,
        hosted_config: ConfigRef {
            kind: "ConfigMap",
            name: "azure-cloud-config",
        },
    },
    Pairing {
        platform: PairedPlatform::Gcp,
        provider: "gcp",
        standalone_config: CLOUD_CONF,
        hosted_config: ConfigRef {
            kind: "ConfigMap",
            name: "gcp-cloud-config",
        },
    },
    Pairing {
        platform: PairedPlatform::OpenStack,
        provider: "openstack",
        standalone_config: CLOUD_CONF,
        hosted_config: ConfigRef {
            kind: "ConfigMap",
            name: "openstack-cloud-config",
        },
    },
    Pairing {
        platform: PairedPlatform::PowerVs,
        provider: "powervs",
        standalone_config: CLOUD_CONF,
        hosted_config: ConfigRef {
            kind: "ConfigMap",
            name: "ccm-config",
        },
    },
];

/// The hosted side of a comparison: the default sample, or a HostedCluster.
pub(crate) enum HostedSide {
    /// The default HostedControlPlane of `testdata/hosted/` for the platform.
    Sample(PairedPlatform),
    /// `--hosted-cluster` (and `PLATFORM`, which must be its platform, when given).
    Cluster(
        crate::config::hosted_cluster::HostedClusterFiles,
        Option<PairedPlatform>,
    ),
}

/// The platform a comparison is of, and the HostedCluster's configuration and file when it is
/// of one.
fn resolve(side: HostedSide) -> Result<(&'static Pairing, Option<(HostedConfig, Utf8PathBuf)>)> {
    let pairing = |wanted: HostedPlatform| PLATFORMS.iter().find(|p| p.platform.hosted() == wanted);
    match side {
        HostedSide::Sample(platform) => Ok((
            pairing(platform.hosted()).expect("every PairedPlatform has its pairing"),
            None,
        )),
        HostedSide::Cluster(files, named) => {
            let (cfg, _) = crate::config::hosted_cluster::load(&files)?;
            let platform = cfg.platform();
            if let Some(named) = named
                && named.hosted() != platform
            {
                bail!(
                    "PLATFORM {}: {} is a HostedCluster of platform {platform}",
                    named.hosted(),
                    files.hosted_cluster
                );
            }
            let Some(found) = pairing(platform) else {
                bail!(
                    "{}: spec.platform.type {platform}: no platform with both a standalone and a hosted CCM",
                    files.hosted_cluster
                );
            };
            Ok((found, Some((cfg, files.hosted_cluster))))
        }
    }
}

/// The comparison's text.
pub(crate) fn compare_hosted(side: HostedSide) -> Result<String> {
    let (
        &Pairing {
            platform,
            provider,
            standalone_config,
            hosted_config,
        },
        cluster,
    ) = resolve(side)?;
    let name = platform.hosted();
    let scratch = tempfile::tempdir().context("creating a temporary folder for the samples")?;
    let scratch = Utf8Path::from_path(scratch.path())
        .ok_or_else(|| anyhow!("the temporary folder has a name that is not UTF-8"))?
        .to_path_buf();
    let files = super::samples::files(provider, None, &scratch)?;
    let pick = |f: &str| files.get(f).cloned();
    let input = InputFiles {
        infrastructure: pick(super::samples::INFRASTRUCTURE),
        images: pick(super::samples::IMAGES)
            .ok_or_else(|| anyhow!("{provider}: no sample images"))?,
        cloud_config: pick(super::samples::CLOUD_CONFIG),
        network: pick(super::samples::NETWORK),
        namespace: crate::config::DEFAULT_NAMESPACE.to_string(),
        ..InputFiles::default()
    };
    let catalogue = crate::catalogue::Catalogue::builtin()?;
    let standalone = super::super::pipeline::render_in_memory(&input, &catalogue)?;
    let (cfg, hosted_source) = if let Some((cfg, path)) = cluster {
        (cfg, format!("the HostedCluster of {path}"))
    } else {
        let hosted_case = super::hosted::cases(&scratch)?
            .into_iter()
            .find(|c| {
                c.folder.as_str() == format!("{}/{provider}/default", super::hosted::HOSTED_FOLDER)
            })
            .ok_or_else(|| anyhow!("{provider}: no hosted sample"))?;
        let cfg = super::hosted::config_of(&hosted_case)?;
        (cfg, "the default HostedControlPlane".to_string())
    };
    let hosted = super::super::hosted::render_hosted(&cfg)?;
    let container = "cloud-controller-manager";
    let mut text = format!(
        "{name}: the standalone CCM (CCCMO, the conformance sample) against the hosted one (HyperShift, {hosted_source})\n\
         = the same, ≠ different, < standalone only, > hosted only\n"
    );
    // facts takes the config object as (kind, name).
    text.push_str(&report(
        &facts(
            &standalone,
            container,
            Some((standalone_config.kind, standalone_config.name)),
        )?,
        &facts(
            &hosted,
            container,
            Some((hosted_config.kind, hosted_config.name)),
        )?,
    ));
    Ok(text)
}

/// `ccm-render compare-hosted`.
pub(crate) fn run(args: &crate::commands::cli::CompareHostedArgs) -> Result<ExitStatus> {
    let side = match (&args.hosted_cluster, &args.images) {
        (Some(hosted_cluster), Some(images)) => HostedSide::Cluster(
            crate::config::hosted_cluster::HostedClusterFiles {
                hosted_cluster: hosted_cluster.clone(),
                name: args.name.clone(),
                images: images.clone(),
                operator_env: args.operator_env.clone(),
            },
            args.platform,
        ),
        // clap requires PLATFORM without --hosted-cluster (and --images with it).
        _ => HostedSide::Sample(
            args.platform
                .ok_or_else(|| anyhow!("PLATFORM is required"))?,
        ),
    };
    let text = compare_hosted(side)?;
    super::super::term::print_stdout(text.as_bytes())?;
    Ok(ExitStatus::Success)
}
