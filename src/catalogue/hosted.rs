//! The built-in hosted components (`assets/hosted/`, compiled by build.rs): the one that renders
//! the CCM of a HostedControlPlane's platform.

use anyhow::Result;
use ccm_catalogue::hosted::{Component, HOSTED_KEY, HOSTED_PLATFORMS};

/// The component of a HyperShift platform type, or None for a platform HyperShift builds no
/// CCM for (None, Agent, IBMCloud).
pub fn component_for(platform: &str) -> Result<Option<Component>> {
    let Some((_, folder)) = HOSTED_PLATFORMS.iter().find(|(p, _)| *p == platform) else {
        return Ok(None);
    };
    super::builtin::builtin_table()
        .get(&format!("{HOSTED_KEY}{folder}"))
        .map(Some)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_hosted_platform_has_a_compiled_component_and_others_none() {
        for (platform, _) in ccm_catalogue::hosted::HOSTED_PLATFORMS {
            let component = super::component_for(platform)
                .expect("decodes")
                .expect("present");
            assert_eq!(component.descriptor.spec.platform, *platform);
        }
        assert!(super::component_for("Agent").expect("decodes").is_none());
    }
}
