//! The values flags take, shared by several subcommands' arguments (clap types; the render
//! kinds and the subcommands name them from here).

use ccm_catalogue::platform::HostedPlatform;

/// A platform with both a standalone and a hosted CCM: `compare-hosted`'s PLATFORM, parsed by
/// clap (any case), so that a platform without both (KubeVirt's CCM is hosted only) is a usage
/// error before anything runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PairedPlatform {
    /// Amazon Web Services.
    #[value(name = "AWS")]
    Aws,
    /// Microsoft Azure.
    #[value(name = "Azure")]
    Azure,
    /// Google Cloud.
    #[value(name = "GCP")]
    Gcp,
    /// OpenStack.
    #[value(name = "OpenStack")]
    OpenStack,
    /// IBM Power Virtual Server.
    #[value(name = "PowerVS")]
    PowerVs,
}

impl PairedPlatform {
    /// The HyperShift platform type.
    pub(crate) fn hosted(self) -> HostedPlatform {
        match self {
            Self::Aws => HostedPlatform::Aws,
            Self::Azure => HostedPlatform::Azure,
            Self::Gcp => HostedPlatform::Gcp,
            Self::OpenStack => HostedPlatform::OpenStack,
            Self::PowerVs => HostedPlatform::PowerVs,
        }
    }
}

/// `--output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutputFormat {
    /// For people.
    Text,
    /// For programs.
    Json,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// When stdout is a terminal and NO_COLOR is unset or empty.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour, given whether stdout is a terminal and the value of `NO_COLOR`
    /// (no-color.org: set and not empty disables colour).
    pub(crate) fn enabled(
        self,
        stdout_is_terminal: bool,
        no_color: Option<&std::ffi::OsStr>,
    ) -> bool {
        match self {
            Self::Always => true,
            Self::Never => false,
            Self::Auto => stdout_is_terminal && no_color.is_none_or(std::ffi::OsStr::is_empty),
        }
    }
}
