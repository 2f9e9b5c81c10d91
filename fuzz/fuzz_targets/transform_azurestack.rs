//! The azurestack cloud config transform (`Transform::AzureStack`), on the azurestackhub conformance case.
#![no_main]

mod common;

static BASE: common::Conformance = common::Conformance {
    infrastructure: std::sync::LazyLock::new(|| {
        common::document(include_str!(
            "../../testdata/conformance/azurestackhub/infrastructure.yaml"
        ))
    }),
    network: std::sync::LazyLock::new(|| {
        common::document(include_str!("../../testdata/conformance/network.yaml"))
    }),
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::transform(ccm_catalogue::providers::Transform::AzureStack, &BASE, data);
});
