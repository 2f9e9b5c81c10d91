//! The command line (clap types only). See `spec/cli-contract.md`: flag names and aliases are a
//! contract with bootkube.sh and installer scripts.

use camino::Utf8PathBuf;
use clap::{Args, Parser, Subcommand, ValueHint};

/// Render OpenShift cloud controller manager objects offline.
///
/// ccm-render produces what the cluster-cloud-controller-manager operator would apply for a
/// cluster (post-install manifests), plus the cloud config, from the installer's files.
#[derive(Debug, Parser)]
#[command(name = "ccm-render", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render the objects for one cluster into a directory.
    #[command(after_help = RENDER_EXAMPLES)]
    Render(Box<RenderArgs>),
    /// List the platforms ccm-render knows and what each needs.
    Platforms(PlatformsArgs),
    /// Write or check a provider folder (a CCM described as data, for --provider-dir).
    #[command(subcommand, after_help = PROVIDER_EXAMPLES)]
    Provider(ProviderCommand),
    /// Print a shell completion script (the same files are committed under completions/).
    #[command(
        after_help = "Examples:\n  ccm-render completions bash > /etc/bash_completion.d/ccm-render\n  ccm-render completions zsh > \"${fpath[1]}/_ccm-render\""
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Arguments of `platforms`.
#[derive(Debug, Args)]
pub struct PlatformsArgs {
    /// A folder of provider folders to list too (as render --provider-dir reads it).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub provider_dir: Option<Utf8PathBuf>,
}

/// `provider` subcommands.
#[derive(Debug, Subcommand)]
pub enum ProviderCommand {
    /// Write a new provider folder DIR/NAME for platform External that checks and renders as is.
    New {
        /// The provider's name (a DNS label; also the folder name and the External platformName it serves).
        #[arg(value_name = "NAME")]
        name: String,
        /// Where to create the folder NAME.
        #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath, default_value = ".")]
        dir: Utf8PathBuf,
    },
    /// Check a provider folder, or a folder of provider folders, with the checks render applies.
    Check {
        /// A provider folder (holding provider.yaml) or a folder of them.
        #[arg(value_name = "DIR", value_hint = ValueHint::DirPath)]
        dir: Utf8PathBuf,
    },
}

const PROVIDER_EXAMPLES: &str = "\
Examples:
  ccm-render provider new acme --dir providers
  ccm-render provider check providers/acme
  ccm-render render --provider-dir providers --infrastructure infrastructure.yaml \\
      --images images.json --dest-dir out";

/// The completion files committed under `completions/`, by shell.
pub const COMPLETION_FILES: [(clap_complete::Shell, &str); 4] = [
    (clap_complete::Shell::Bash, "ccm-render.bash"),
    (clap_complete::Shell::Zsh, "_ccm-render"),
    (clap_complete::Shell::Fish, "ccm-render.fish"),
    (clap_complete::Shell::PowerShell, "_ccm-render.ps1"),
];

/// Writes the completion script for `shell`.
pub fn write_completions(shell: clap_complete::Shell, out: &mut dyn std::io::Write) {
    use clap::CommandFactory as _;
    clap_complete::generate(shell, &mut Cli::command(), "ccm-render", out);
}

const RENDER_EXAMPLES: &str = "\
Examples:
  # On the bootstrap node (bootkube.sh):
  ccm-render render --infrastructure manifests/cluster-infrastructure-02-config.yml \\
      --images images.json --cloud-config manifests/cloud-provider-config.yaml \\
      --dest-dir /assets/ccm-bootstrap

  # A developer rendering the shipped AWS case:
  ccm-render render --infrastructure testdata/conformance/aws/infrastructure.yaml \\
      --images testdata/conformance/images.json \\
      --cloud-config testdata/conformance/aws/cloud-provider-config.yaml --dest-dir out";

/// Arguments of `render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The Infrastructure manifest (config.openshift.io/v1), YAML or JSON.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, visible_alias = "cluster-infrastructure-file")]
    pub infrastructure: Utf8PathBuf,

    /// images.json, or the cloud-controller-manager-images ConfigMap that carries it.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, visible_alias = "images-file")]
    pub images: Utf8PathBuf,

    /// The cloud provider config: a ConfigMap (cloud-provider-config, kube-cloud-config) or a raw cloud.conf.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, visible_alias = "cloud-config-file")]
    pub cloud_config: Option<Utf8PathBuf>,

    /// The Proxy manifest (config.openshift.io/v1); its status becomes HTTP(S)_PROXY/NO_PROXY.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub proxy: Option<Utf8PathBuf>,

    /// The Network manifest (config.openshift.io/v1); the vSphere cloud config reads its IP families.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub network: Option<Utf8PathBuf>,

    /// The FeatureGate manifest; without it, the OpenShift Default feature set.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub feature_gate: Option<Utf8PathBuf>,

    /// The APIServer manifest (TLS security profile); without it, the Intermediate profile.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub apiserver: Option<Utf8PathBuf>,

    /// The installer's root credentials Secret for the platform (kube-system), or the CCM's own
    /// Secret in manual mode; the files the bootstrap pod needs go under DIR/secrets/ (mode 0600).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub credentials: Option<Utf8PathBuf>,

    /// Extra PEM CA bundle for the ccm-trusted-ca ConfigMap (e.g. the host's system bundle).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub ca_bundle: Option<Utf8PathBuf>,

    /// Namespace of the post-install objects.
    #[arg(long, value_name = "NS", default_value = crate::config::DEFAULT_NAMESPACE)]
    pub namespace: String,

    /// A folder of provider folders that add to or override the built-in providers.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub provider_dir: Option<Utf8PathBuf>,

    /// Output root (created if missing): bootstrap/, config/, manifests/.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub dest_dir: Utf8PathBuf,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn historical_render_flag_names_are_accepted() {
        let cli = Cli::try_parse_from([
            "ccm-render",
            "render",
            "--cluster-infrastructure-file",
            "i.yaml",
            "--images-file",
            "images.json",
            "--cloud-config-file",
            "c.yaml",
            "--dest-dir",
            "out",
        ])
        .expect("parses");
        let Command::Render(args) = cli.command else {
            panic!("not render");
        };
        assert_eq!(args.infrastructure, "i.yaml");
        assert_eq!(args.cloud_config.as_deref(), Some("c.yaml".into()));
        assert_eq!(args.namespace, "openshift-cloud-controller-manager");
    }
}
