//! `--operator-env KEY=VALUE`: the part of HyperShift's control-plane-operator environment that
//! its CCM components read. Any other name is refused, so that a typo cannot pass unseen.

use anyhow::{Result, anyhow, bail};
use std::collections::BTreeMap;

/// The names the CCM components read (HyperShift `azureutil.IsAroHCP`,
/// `azureutil.GetKeyVaultAuthorizedUser`, `proxy.SetEnvVars`).
pub(crate) const OPERATOR_ENV_NAMES: &[&str] = &[
    "MANAGED_SERVICE",
    "ARO_HCP_KEY_VAULT_USER_CLIENT_ID",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
];

/// HyperShift `hyperv1.AroHCP`: the `MANAGED_SERVICE` value of a managed Azure control plane.
pub(crate) const ARO_HCP: &str = "ARO-HCP";

/// The operator's environment, by name (a name given twice: the last wins, as in a shell).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct OperatorEnv(BTreeMap<String, String>);

impl OperatorEnv {
    /// The value of `name`, "" when unset (Go's `os.Getenv`).
    pub(crate) fn get(&self, name: &str) -> &str {
        self.0.get(name).map_or("", String::as_str)
    }

    /// `MANAGED_SERVICE=ARO-HCP`.
    pub(crate) fn is_aro_hcp(&self) -> bool {
        self.get("MANAGED_SERVICE") == ARO_HCP
    }
}

/// Parses the `--operator-env` values.
pub(crate) fn parse(values: &[String]) -> Result<OperatorEnv> {
    let mut env = BTreeMap::new();
    for value in values {
        let (name, val) = value
            .split_once('=')
            .ok_or_else(|| anyhow!("--operator-env {value:?}: expected KEY=VALUE"))?;
        if !OPERATOR_ENV_NAMES.contains(&name) {
            bail!(
                "--operator-env {name:?}: not a variable the control-plane-operator's CCM components read (known: {})",
                OPERATOR_ENV_NAMES.join(", ")
            );
        }
        if val.chars().any(char::is_control) {
            bail!("--operator-env {name}: the value holds a control character");
        }
        env.insert(name.to_string(), val.to_string());
    }
    Ok(OperatorEnv(env))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_are_read_and_others_refused() {
        let env =
            parse(&["MANAGED_SERVICE=ARO-HCP".into(), "NO_PROXY=a,b".into()]).expect("parses");
        assert!(env.is_aro_hcp());
        assert_eq!(env.get("NO_PROXY"), "a,b");
        assert_eq!(env.get("HTTP_PROXY"), "");
        let err = format!("{:#}", parse(&["PATH=/bin".into()]).expect_err("refused"));
        assert!(
            err.starts_with("--operator-env \"PATH\": not a variable"),
            "{err}"
        );
        let err = format!(
            "{:#}",
            parse(&["MANAGED_SERVICE".into()]).expect_err("refused")
        );
        assert!(err.contains("expected KEY=VALUE"), "{err}");
    }
}
