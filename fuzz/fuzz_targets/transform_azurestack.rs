//! The azurestack cloud config transform (`Transform::AzureStack`), on the azurestackhub conformance case.
#![no_main]

mod common;

const BASE: common::Conformance = common::Conformance {
    infrastructure: include_str!("../../testdata/conformance/azurestackhub/infrastructure.yaml"),
    network: include_str!("../../testdata/conformance/network.yaml"),
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::transform(ccm_render::cloud_config::Transform::AzureStack, &BASE, data);
});
