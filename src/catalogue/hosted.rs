//! The built-in hosted components (`assets/hosted/`, compiled by build.rs): the one that renders
//! the CCM of a HostedControlPlane's platform.

use anyhow::Result;
use ccm_catalogue::hosted::{Component, HOSTED_KEY};
use ccm_catalogue::platform::HostedPlatform;

/// The component of a HyperShift platform type, or None for a platform HyperShift builds no
/// CCM for (None, Agent, IBMCloud).
pub(crate) fn component_for(platform: HostedPlatform) -> Result<Option<Component>> {
    let Some(folder) = platform.component_folder() else {
        return Ok(None);
    };
    super::builtin::builtin_table()
        .get(&format!("{HOSTED_KEY}{folder}"))
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::HostedPlatform;

    #[test]
    fn every_hosted_platform_has_a_compiled_component_and_others_none() {
        for platform in HostedPlatform::ALL {
            let component = super::component_for(platform).expect("decodes");
            match platform.component_folder() {
                Some(_) => assert_eq!(
                    component.expect("present").descriptor.spec.platform,
                    platform
                ),
                None => assert!(component.is_none(), "{platform}"),
            }
        }
    }
}
