//! What the installer looks up in its credentials or online to write a platform's
//! cloud-provider-config, and where ccm-render takes each fact from instead: the credentials
//! Secret (`--credentials`) or one command-line flag per fact (`--<platform>-<fact>`).
//!
//! [`NEEDS`] is the one table of these inputs: `render --help` and the README's table
//! "What each platform needs besides the install-config" are both generated from it, and the
//! missing-fact error names the same flags.

use crate::inputs::credentials::{Credentials, SecretValue};
use camino::Utf8PathBuf;
use std::fmt::Write as _;

/// The `--<platform>-<fact>` flags as given (file flags as paths), before any file is read.
#[derive(Debug, Clone, Default)]
pub struct FactFlags {
    pub(crate) azure_stack_endpoints: Option<Utf8PathBuf>,
    pub(crate) ibmcloud_zones: Option<String>,
    pub(crate) powervs_vpc_subnets: Option<String>,
    pub(crate) openstack_external_network_id: Option<String>,
    pub(crate) openstack_octavia: Option<bool>,
    pub(crate) openstack_ca_cert: Option<Utf8PathBuf>,
}

/// The facts given on the command line, already read (file flags hold the file's text).
#[derive(Debug, Clone, Default)]
pub(crate) struct PlatformFacts {
    /// `--credentials`.
    pub(crate) credentials: Option<Credentials>,
    /// `--azure-stack-endpoints`: the Azure Stack Hub environment JSON.
    pub(crate) azure_stack_endpoints: Option<String>,
    /// `--ibmcloud-zones`.
    pub(crate) ibmcloud_zones: Option<Vec<String>>,
    /// `--powervs-vpc-subnets`.
    pub(crate) powervs_vpc_subnets: Option<Vec<String>>,
    /// `--openstack-external-network-id`.
    pub(crate) openstack_external_network_id: Option<String>,
    /// `--openstack-octavia`.
    pub(crate) openstack_octavia: Option<bool>,
    /// `--openstack-ca-cert`: the PEM text.
    pub(crate) openstack_ca_cert: Option<String>,
}

impl PlatformFacts {
    /// The value of `key` in the first Secret of `--credentials` that has it (the installer's
    /// root Secret and the CCM's own Secret carry the same keys).
    pub(crate) fn secret_value(&self, key: &str) -> Option<&SecretValue> {
        self.credentials
            .as_ref()?
            .secrets
            .iter()
            .find_map(|secret| secret.data.get(key))
    }

    /// The flags given, by name: checked against the platform, since each is one platform's.
    pub(crate) fn given_flags(&self) -> Vec<&'static str> {
        let mut flags = Vec::new();
        let mut add = |given: bool, flag: &'static str| {
            if given {
                flags.push(flag);
            }
        };
        add(self.azure_stack_endpoints.is_some(), AZURE_STACK_ENDPOINTS);
        add(self.ibmcloud_zones.is_some(), IBMCLOUD_ZONES);
        add(self.powervs_vpc_subnets.is_some(), POWERVS_VPC_SUBNETS);
        add(
            self.openstack_external_network_id.is_some(),
            OPENSTACK_EXTERNAL_NETWORK_ID,
        );
        add(self.openstack_octavia.is_some(), OPENSTACK_OCTAVIA);
        add(self.openstack_ca_cert.is_some(), OPENSTACK_CA_CERT);
        flags
    }
}

pub(crate) const CREDENTIALS: &str = "--credentials";
pub(crate) const IBM_INSTANCE_CRN: &str = "--ibm-instance-crn";
pub(crate) const AZURE_STACK_ENDPOINTS: &str = "--azure-stack-endpoints";
pub(crate) const IBMCLOUD_ZONES: &str = "--ibmcloud-zones";
pub(crate) const POWERVS_VPC_SUBNETS: &str = "--powervs-vpc-subnets";
pub(crate) const OPENSTACK_EXTERNAL_NETWORK_ID: &str = "--openstack-external-network-id";
pub(crate) const OPENSTACK_OCTAVIA: &str = "--openstack-octavia";
pub(crate) const OPENSTACK_CA_CERT: &str = "--openstack-ca-cert";

/// One input a platform needs besides the install-config.
#[derive(Debug, Clone, Copy)]
pub struct Need {
    /// The platform (the install-config key; `azure` with `cloudName: AzureStackCloud` is
    /// `azurestackhub`).
    pub(crate) platform: &'static str,
    /// The flag.
    pub input: &'static str,
    /// When it is needed.
    pub(crate) when: &'static str,
    /// What it supplies, and the installer's default if it has one.
    pub(crate) what: &'static str,
}

/// The flags each platform's cloud-provider-config needs (see the module comment). AWS, GCP,
/// vSphere and Nutanix need none; IBM Cloud and PowerVS also need `--ibm-instance-crn` for the
/// Infrastructure.
pub const NEEDS: &[Need] = &[
    Need {
        platform: "azure",
        input: CREDENTIALS,
        when: "always",
        what: "the Secret's azure_subscription_id and azure_tenant_id",
    },
    Need {
        platform: "azurestackhub",
        input: CREDENTIALS,
        when: "always",
        what: "the Secret's azure_subscription_id and azure_tenant_id",
    },
    Need {
        platform: "azurestackhub",
        input: AZURE_STACK_ENDPOINTS,
        when: "always",
        what: "FILE: the environment JSON the installer reads from the ARM endpoint (key endpoints)",
    },
    Need {
        platform: "ibmcloud",
        input: IBM_INSTANCE_CRN,
        when: "always",
        what: "the CIS or DNS Services instance CRN; the account ID is its a/<account> scope",
    },
    Need {
        platform: "ibmcloud",
        input: IBMCLOUD_ZONES,
        when: "a control plane or worker pool names no zones",
        what: "the region's zones, comma-separated (the installer asks the VPC API)",
    },
    Need {
        platform: "powervs",
        input: IBM_INSTANCE_CRN,
        when: "always",
        what: "the CIS or DNS Services instance CRN; the account ID is its a/<account> scope",
    },
    Need {
        platform: "powervs",
        input: POWERVS_VPC_SUBNETS,
        when: "platform.powervs.vpcName is set",
        what: "the subnets of that existing VPC, comma-separated (the installer lists them)",
    },
    Need {
        platform: "openstack",
        input: CREDENTIALS,
        when: "always",
        what: "the Secret's clouds.yaml: region of the cloud named openstack",
    },
    Need {
        platform: "openstack",
        input: OPENSTACK_EXTERNAL_NETWORK_ID,
        when: "platform.openstack.externalNetwork is set",
        what: "the ID of that network (floating-network-id)",
    },
    Need {
        platform: "openstack",
        input: OPENSTACK_CA_CERT,
        when: "the clouds.yaml cloud has a cacert",
        what: "FILE: the PEM bundle that cacert names (key ca-bundle.pem)",
    },
    Need {
        platform: "openstack",
        input: OPENSTACK_OCTAVIA,
        when: "optional",
        what: "true|false: whether Octavia is in the catalog; default true, as the installer assumes when it cannot tell",
    },
];

/// The table for `render --help`: a line per input, then what it supplies, wrapped short
/// enough that clap leaves the lines alone.
pub fn help_table() -> String {
    let mut out = String::from(
        "What each platform needs besides the install-config (with --install-config):\n",
    );
    for need in NEEDS {
        let _ = writeln!(
            out,
            "  {:<14} {} ({})",
            need.platform, need.input, need.when
        );
        let mut line = String::from("      ");
        for word in need.what.split(' ') {
            if line.len() + word.len() > 78 {
                let _ = writeln!(out, "{}", line.trim_end());
                line = String::from("      ");
            }
            line.push_str(word);
            line.push(' ');
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push_str("  aws, gcp, vsphere, nutanix, baremetal, none: nothing more\n");
    out
}

/// The same table in Markdown, as the README holds it.
pub fn markdown_table() -> String {
    let mut out =
        String::from("| Platform | Input | When | What it supplies |\n|---|---|---|---|\n");
    for need in NEEDS {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} |",
            need.platform,
            need.input,
            need.when,
            need.what.replace('|', "\\|")
        );
    }
    out.push_str("| aws, gcp, vsphere, nutanix, baremetal, none | nothing more | | |\n");
    out
}

/// The facts a derivation found missing: all are reported in one error.
#[derive(Debug, Default)]
pub(crate) struct Missing(Vec<(&'static str, String)>);

impl Missing {
    /// Records that `input` would supply `what`.
    pub(crate) fn need(&mut self, input: &'static str, what: impl Into<String>) {
        self.0.push((input, what.into()));
    }

    /// Whether nothing is missing.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The one error line: every input that would complete the config, and the alternative of
    /// giving the installer's config whole.
    pub(crate) fn message(&self, platform: &str) -> String {
        let list: Vec<String> = self
            .0
            .iter()
            .map(|(input, what)| format!("{input} ({what})"))
            .collect();
        format!(
            "platform.{platform}: the cloud provider config needs what the installer reads from its credentials or the cloud; give {}, or the installer's cloud-provider-config with --cloud-config",
            list.join(", ")
        )
    }
}

/// Splits a comma-separated flag value, dropping empty items.
pub(crate) fn comma_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(String::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_need_is_for_a_known_platform_and_flag() {
        for need in NEEDS {
            assert!(
                ["azure", "azurestackhub", "ibmcloud", "powervs", "openstack"]
                    .contains(&need.platform),
                "{need:?}"
            );
            assert!(need.input.starts_with("--"), "{need:?}");
        }
    }

    #[test]
    fn the_missing_message_is_one_line_naming_every_input() {
        let mut missing = Missing::default();
        missing.need(CREDENTIALS, "clouds.yaml");
        missing.need(OPENSTACK_CA_CERT, "the CA");
        let text = missing.message("openstack");
        assert!(!text.contains('\n'));
        assert!(text.contains("--credentials (clouds.yaml), --openstack-ca-cert (the CA)"));
        assert!(text.ends_with("with --cloud-config"));
    }

    #[test]
    fn comma_lists_drop_blanks() {
        assert_eq!(comma_list(" a, ,b,"), ["a", "b"]);
        assert!(comma_list("").is_empty());
    }
}
