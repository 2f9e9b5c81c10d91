//! `HostedConfig`: what a hosted render reads, from `--hosted-control-plane`, `--images`,
//! `--credentials` and `--operator-env`, read and checked together. HyperShift's
//! control-plane-operator reads the same things from its HostedControlPlane, its release
//! payload, the management cluster and its own environment.

pub(crate) mod operator_env;

use crate::inputs::credentials::{Credentials, Secret};
use crate::inputs::hosted_control_plane::HostedControlPlane;
use crate::inputs::hosted_control_plane::platform::{AzureAuthentication, PlatformSpec};
use crate::inputs::payload_images::PayloadImages;
use anyhow::{Context as _, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::platform::HostedPlatform;
pub(crate) use operator_env::OperatorEnv;

/// The input files of a hosted render.
#[derive(Debug, Clone, Default)]
pub(crate) struct HostedFiles {
    /// `--hosted-control-plane`.
    pub(crate) hosted_control_plane: Utf8PathBuf,
    /// `--images`.
    pub(crate) images: Utf8PathBuf,
    /// `--credentials`.
    pub(crate) credentials: Option<Utf8PathBuf>,
    /// `--operator-env`, as given.
    pub(crate) operator_env: Vec<String>,
}

/// Everything a hosted render reads.
#[derive(Debug, Clone)]
pub(crate) struct HostedConfig {
    /// The HostedControlPlane.
    pub(crate) hcp: HostedControlPlane,
    /// Its file, for messages.
    pub(crate) hcp_path: Utf8PathBuf,
    /// The release payload's images by tag.
    pub(crate) images: PayloadImages,
    /// The Secrets HyperShift would read from the management cluster.
    pub(crate) credentials: Option<Credentials>,
    /// The control-plane-operator's environment.
    pub(crate) env: OperatorEnv,
    /// The TLS flags of the HostedControlPlane's profile.
    pub(crate) tls_args: Vec<String>,
}

impl HostedConfig {
    /// Reads and checks every input.
    pub(crate) fn load(files: &HostedFiles) -> Result<Self> {
        let env = operator_env::parse(&files.operator_env)?;
        let path = &files.hosted_control_plane;
        let hcp = crate::inputs::hosted_control_plane::load(path)?;
        let images = crate::inputs::payload_images::load(&files.images)?;
        let credentials = files
            .credentials
            .as_deref()
            .map(crate::inputs::credentials::load)
            .transpose()?;
        Self::new(hcp, path, images, credentials, env)
    }

    /// Puts inputs already read together.
    pub(crate) fn new(
        hcp: HostedControlPlane,
        path: &Utf8Path,
        images: PayloadImages,
        credentials: Option<Credentials>,
        env: OperatorEnv,
    ) -> Result<Self> {
        // HyperShift `ClusterConfiguration.GetTLSSecurityProfile`.
        let at = "spec.configuration.apiServer.tlsSecurityProfile";
        let profile = hcp
            .spec
            .configuration
            .as_ref()
            .and_then(|c| c.api_server.as_ref())
            .and_then(|a| a.tls_security_profile.as_ref())
            .map(|p| crate::config::tls::profile::read(p, at))
            .transpose()
            .with_context(|| path.to_owned())?;
        let tls_args = crate::config::tls::hypershift::tls_args(profile.as_ref(), at)
            .with_context(|| path.to_owned())?;
        Ok(Self {
            hcp,
            hcp_path: path.to_owned(),
            images,
            credentials,
            env,
            tls_args,
        })
    }

    /// The platform type.
    pub(crate) fn platform(&self) -> HostedPlatform {
        self.hcp.spec.platform.platform()
    }

    /// HyperShift `azureutil.IsAroHCPByHCP`: an Azure control plane of the ARO-HCP service,
    /// told by its authentication type.
    pub(crate) fn managed_azure(&self) -> bool {
        matches!(
            &self.hcp.spec.platform,
            PlatformSpec::Azure(azure)
                if matches!(azure.block.azure_authentication_config, AzureAuthentication::ManagedIdentities(_))
        )
    }

    /// The Secret `namespace/name` from `--credentials`, as HyperShift reads it from the
    /// management cluster; an error naming the field that names it when it is not there.
    pub(crate) fn secret(&self, name: &str, field: &str) -> Result<&Secret> {
        let namespace = &self.hcp.metadata.namespace;
        let Some(credentials) = &self.credentials else {
            bail!(
                "{}: {field}: the Secret {namespace}/{name} is read from the management cluster; give it with --credentials",
                self.hcp_path
            );
        };
        credentials
            .secrets
            .iter()
            .find(|s| s.name == name && (s.namespace == *namespace || s.namespace == "default"))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: no Secret {namespace}/{name}, which {} {field} names",
                    credentials.path,
                    self.hcp_path
                )
            })
    }
}
