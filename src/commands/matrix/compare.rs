//! `ccm-render compare-hosted PLATFORM`: the hosted CCM of a platform against its standalone
//! one, from the samples `matrix` renders (the platform's conformance inputs for the
//! standalone render, the default HostedControlPlane of `testdata/hosted/` for the hosted one),
//! field by field (`output/hosted_compare.rs`).

use super::super::exit::ExitStatus;
use crate::config::InputFiles;
use crate::output::hosted_compare::{facts, report};
use anyhow::{Context as _, Result, anyhow, bail};
use camino::Utf8Path;
use ccm_catalogue::platform::HostedPlatform;

/// A ConfigMap or Secret by kind and name.
type ObjectRef = (&'static str, &'static str);

/// The platforms with both a standalone and a hosted CCM: platform type, provider, the
/// standalone cloud config object, the hosted one.
const PLATFORMS: &[(HostedPlatform, &str, ObjectRef, ObjectRef)] = &[
    (
        HostedPlatform::Aws,
        "aws",
        ("ConfigMap", "cloud-conf"),
        ("ConfigMap", "aws-cloud-config"),
    ),
    (
        HostedPlatform::Azure,
        "azure",
        ("ConfigMap", "cloud-conf"),
        ("ConfigMap", "azure-cloud-config"),
    ),
    (
        HostedPlatform::Gcp,
        "gcp",
        ("ConfigMap", "cloud-conf"),
        ("ConfigMap", "gcp-cloud-config"),
    ),
    (
        HostedPlatform::OpenStack,
        "openstack",
        ("ConfigMap", "cloud-conf"),
        ("ConfigMap", "openstack-cloud-config"),
    ),
    (
        HostedPlatform::PowerVs,
        "powervs",
        ("ConfigMap", "cloud-conf"),
        ("ConfigMap", "ccm-config"),
    ),
];

/// The comparison's text for `platform`.
pub(crate) fn compare_hosted(platform: &str) -> Result<String> {
    let Some((name, provider, standalone_config, hosted_config)) = PLATFORMS
        .iter()
        .find(|(p, ..)| p.as_str().eq_ignore_ascii_case(platform))
    else {
        bail!(
            "PLATFORM {platform:?}: no platform with both a standalone and a hosted CCM (known: {}; KubeVirt's CCM is hosted only)",
            PLATFORMS
                .iter()
                .map(|p| p.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
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
    let hosted_case = super::hosted::cases(&scratch)?
        .into_iter()
        .find(|c| {
            c.folder.as_str() == format!("{}/{provider}/default", super::hosted::HOSTED_FOLDER)
        })
        .ok_or_else(|| anyhow!("{provider}: no hosted sample"))?;
    let cfg = crate::config::hosted::HostedConfig::load(&hosted_case.files)?;
    let hosted = super::super::hosted::render_hosted(&cfg)?;
    let container = "cloud-controller-manager";
    let mut text = format!(
        "{name}: the standalone CCM (CCCMO, the conformance sample) against the hosted one (HyperShift, the default HostedControlPlane)\n\
         = the same, ≠ different, < standalone only, > hosted only\n"
    );
    text.push_str(&report(
        &facts(&standalone, container, Some(*standalone_config)),
        &facts(&hosted, container, Some(*hosted_config)),
    ));
    Ok(text)
}

/// `ccm-render compare-hosted`.
pub(crate) fn run(platform: &str) -> Result<ExitStatus> {
    let text = compare_hosted(platform)?;
    super::super::term::print_stdout(text.as_bytes())?;
    Ok(ExitStatus::Success)
}
