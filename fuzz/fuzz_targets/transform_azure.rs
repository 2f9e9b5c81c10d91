//! The azure cloud config transform (`Transform::Azure`), on the azure conformance case.
#![no_main]

mod common;

static BASE: common::Conformance = common::Conformance {
    infrastructure: std::sync::LazyLock::new(|| {
        common::document(include_str!(
            "../../testdata/conformance/azure/infrastructure.yaml"
        ))
    }),
    network: std::sync::LazyLock::new(|| {
        common::document(include_str!("../../testdata/conformance/network.yaml"))
    }),
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::transform(ccm_catalogue::providers::Transform::Azure, &BASE, data);
});
