//! HyperShift's token-minter (`support/controlplane-component/token-minter-container.go`): a
//! native sidecar that mints a cloud token for a service account of the hosted cluster and
//! hands it to the CCM through a memory volume. Only AWS, self-managed Azure and GCP mint cloud
//! tokens; whether Azure is self-managed is told by `MANAGED_SERVICE` here (HyperShift
//! `azureutil.IsSelfManagedAzure`), not by the HostedControlPlane as for its other objects.

use crate::config::hosted::HostedConfig;
use anyhow::{Result, anyhow};
use ccm_catalogue::hosted::TokenMinter;
use ccm_catalogue::platform::HostedPlatform;
use serde_json::{Value, json};

const TOKEN_PATH: &str = "/var/run/secrets/openshift/serviceaccount";

/// Adds the token-minter to the pod spec when the platform mints cloud tokens.
pub(crate) fn inject(minter: &TokenMinter, cfg: &HostedConfig, pod: &mut Value) -> Result<()> {
    let mints = match cfg.platform() {
        HostedPlatform::Aws | HostedPlatform::Gcp => true,
        HostedPlatform::Azure => !cfg.env.is_aro_hcp(),
        HostedPlatform::None
        | HostedPlatform::IbmCloud
        | HostedPlatform::Agent
        | HostedPlatform::KubeVirt
        | HostedPlatform::PowerVs
        | HostedPlatform::OpenStack => false,
    };
    if !mints {
        return Ok(());
    }
    let image = cfg.images.get("token-minter").ok_or_else(|| {
        anyhow!(
            "{}: no tag token-minter, which the {} token-minter needs",
            cfg.images.origin,
            cfg.platform()
        )
    })?;
    super::edit::push(
        &mut pod["volumes"],
        json!({"name": "cloud-token", "emptyDir": {"medium": "Memory"}}),
    );
    let container = json!({
        "name": "cloud-token-minter",
        "image": image,
        "command": ["/usr/bin/control-plane-operator", "token-minter"],
        "args": [
            "--token-audience=openshift",
            format!("--service-account-namespace={}", minter.service_account_namespace),
            format!("--service-account-name={}", minter.service_account_name),
            format!("--token-file={TOKEN_PATH}/token"),
            "--kubeconfig=/etc/kubernetes/kubeconfig",
        ],
        "imagePullPolicy": "IfNotPresent",
        "resources": {"requests": {"cpu": "10m", "memory": "30Mi"}},
        "volumeMounts": [
            {"name": "cloud-token", "mountPath": TOKEN_PATH},
            {"name": "kubeconfig", "mountPath": "/etc/kubernetes"},
        ],
        "restartPolicy": "Always",
        "startupProbe": {
            "exec": {"command": ["test", "-f", format!("{TOKEN_PATH}/token")]},
            "periodSeconds": 1,
            "failureThreshold": 30,
        },
    });
    super::edit::push(&mut pod["initContainers"], container);
    if let Some(first) = pod
        .get_mut("containers")
        .and_then(Value::as_array_mut)
        .and_then(|c| c.first_mut())
    {
        super::edit::push(
            &mut first["volumeMounts"],
            json!({"name": "cloud-token", "mountPath": TOKEN_PATH}),
        );
    }
    Ok(())
}
